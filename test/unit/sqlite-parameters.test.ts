import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import SQLite from 'better-sqlite3'
import { sqlitePath } from '../../src/db/database.ts'
import { openStore } from '../../src/store/open.ts'
import { withoutValuePlanning } from '../../src/db/sqlite.ts'
import { migrate } from '../../src/db/migrate.ts'
import { freshDatabase, type TestDatabase } from '../support/database.ts'

describe('SQLite statements keep the plan they were prepared with', () => {
  test('every placeholder outside quotes becomes +?, quoted text is untouched', () => {
    assert.equal(
      withoutValuePlanning(`select "a?" from t where x > ? and y = '?' and z in (?, ?) limit ?`),
      `select "a?" from t where x > +? and y = '?' and z in (+?, +?) limit +?`,
    )
    assert.equal(withoutValuePlanning(`select 'it''s ?' || ?`), `select 'it''s ?' || +?`)
    assert.equal(withoutValuePlanning('begin immediate'), 'begin immediate')
  })

  describe('plans of the rewritten hot statements still use their indexes', () => {
    let file: TestDatabase
    let raw: SQLite.Database
    before(async () => {
      file = await freshDatabase({ file: true })
      if (!file.url.startsWith('sqlite:')) return
      const database = openStore(file.url)
      await migrate(database.db)
      await database.close()
      raw = new SQLite(sqlitePath(file.url), { readonly: true })
    })
    after(async () => {
      raw?.close()
      await file.drop()
    })
    const plan = (sql: string, ...values: unknown[]) =>
      raw
        .prepare(`explain query plan ${withoutValuePlanning(sql)}`)
        .all(...values)
        .map((row) => (row as { detail: string }).detail)
        .join(' | ')

    test('a keyset page walks the primary key from the cursor', (t) => {
      if (!raw) return t.skip('SQLite only')
      assert.match(
        plan('select id from contributions where id > ? order by id asc limit ?', 10, 25),
        /^SEARCH contributions USING INTEGER PRIMARY KEY \(rowid>\?\)$/,
      )
    })

    test('the key holder join looks each table up by its key', (t) => {
      if (!raw) return t.skip('SQLite only')
      const detail = plan(
        `select p.id from participant_keys k join participants p on p.id = k.participant_id
         join usage_participants u on u.participant_id = p.id where k.key_hash = ?`,
        'digest',
      )
      for (const table of ['k', 'p', 'u']) assert.match(detail, new RegExp(`SEARCH ${table} USING `), detail)
      assert.doesNotMatch(detail, /SCAN/, detail)
    })
  })
})
