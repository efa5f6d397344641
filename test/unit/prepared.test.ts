import assert from 'node:assert/strict'
import { before, describe, test } from 'node:test'
import { sql } from 'kysely'
import { prepared } from '../../src/db/prepared.ts'
import { migratedStore } from '../support/database.ts'

describe('prepared queries (db/prepared.ts)', () => {
  const store = migratedStore()
  before(async () => {
    const at = '2026-01-01T00:00:00.000Z'
    await store()
      .db.insertInto('service_flags')
      .values([
        { name: 'a', value: 'one', updated_at: at },
        { name: 'b', value: 'two', updated_at: at },
        { name: 'c', value: 'three', updated_at: 'later' },
      ])
      .execute()
  })

  const byName = prepared((db, v: { name: string; at: string }) =>
    db
      .selectFrom('service_flags')
      .select('value')
      .where('name', '=', v.name)
      .where('updated_at', '=', v.at)
      .where('value', '<>', 'never'),
  )

  test('each run binds its own values by name; constants of the query stay', async () => {
    const at = '2026-01-01T00:00:00.000Z'
    assert.deepEqual(await byName(store().db, { name: 'a', at }), [{ value: 'one' }])
    assert.deepEqual(await byName(store().db, { at, name: 'b' }), [{ value: 'two' }])
    assert.deepEqual(await byName(store().db, { name: 'c', at }), [], 'the second value is bound too')
    assert.deepEqual(await byName(store().db, { name: 'c', at: 'later' }), [{ value: 'three' }])
  })

  test('an insert given its column names binds every column of the row', async () => {
    const insert = prepared(
      (db, row: { name: string; value: string; updated_at: string }) => db.insertInto('service_flags').values(row),
      ['name', 'value', 'updated_at'],
    )
    await insert(store().db, { name: 'd', value: 'four', updated_at: 'now' })
    await insert(store().db, { name: 'e', value: 'five', updated_at: 'then' })
    const rows = await store().db.selectFrom('service_flags').selectAll().where('name', 'in', ['d', 'e']).execute()
    assert.deepEqual(rows.map((r) => [r.name, r.value, r.updated_at]).sort(), [
      ['d', 'four', 'now'],
      ['e', 'five', 'then'],
    ])
  })

  test('a query that writes a value into its SQL text is refused', async () => {
    const inlined = prepared((db, v: { name: string }) =>
      db
        .selectFrom('service_flags')
        .select('value')
        .where(sql<boolean>`name = ${sql.lit(v.name)}`),
    )
    await assert.rejects(inlined(store().db, { name: 'a' }), /writes a value into its SQL/)
  })
})
