import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { sql } from 'kysely'
import type { Db } from '../../src/db/database.ts'
import { isPostgres } from '../../src/db/dialect.ts'
import { migratedStore } from '../support/database.ts'

interface ForeignKey {
  table: string
  columns: string[]
}

/**
 * Every foreign key's columns lead an index of their table. Without one, the database checks a
 * change to the referenced row (PostgreSQL's id publication renumbers every new contribution; a
 * removal deletes rows) by reading the whole referencing table, once per row changed.
 */
describe('foreign keys and their indexes', () => {
  const store = migratedStore()

  test('each foreign key is the leading part of an index on its table, on the migrated schema', async () => {
    const db = store().db
    const keys = await foreignKeys(db)
    assert.ok(keys.length >= 10, `the catalog lists the schema's foreign keys (${keys.length})`)
    assert.ok(keys.some((key) => key.table === 'appreciations' && key.columns.join() === 'contribution_id'))
    const unindexed = []
    for (const key of keys) {
      const leads = (await indexes(db, key.table)).some((columns) =>
        key.columns.every((column) => columns.slice(0, key.columns.length).includes(column)),
      )
      if (!leads) unindexed.push(`${key.table}(${key.columns.join(', ')})`)
    }
    assert.deepEqual(unindexed, [])
  })
})

async function foreignKeys(db: Db): Promise<ForeignKey[]> {
  if (isPostgres(db)) {
    const { rows } = await sql<{ table: string; columns: string[] }>`
      select t.relname as table, array(
        select a.attname::text from unnest(c.conkey) with ordinality k(num, pos)
        join pg_attribute a on a.attrelid = c.conrelid and a.attnum = k.num order by k.pos
      ) as columns
      from pg_constraint c join pg_class t on t.oid = c.conrelid
      where c.contype = 'f' and t.relnamespace = current_schema()::regnamespace`.execute(db)
    return rows
  }
  const { rows: tables } = await sql<{ name: string }>`
    select name from sqlite_master where type = 'table' and name not like 'sqlite_%'`.execute(db)
  const keys: ForeignKey[] = []
  for (const { name } of tables) {
    const { rows } = await sql<{ id: number; from: string }>`
      select id, "from" from pragma_foreign_key_list(${name}) order by id, seq`.execute(db)
    for (const id of new Set(rows.map((row) => row.id))) {
      keys.push({ table: name, columns: rows.filter((row) => row.id === id).map((row) => row.from) })
    }
  }
  return keys
}

/** Each index of the table as its column names in order (SQLite's rowid key counts as one). */
async function indexes(db: Db, table: string): Promise<string[][]> {
  if (isPostgres(db)) {
    const { rows } = await sql<{ columns: string[] }>`
      select array(
        select a.attname::text from unnest(i.indkey) with ordinality k(num, pos)
        join pg_attribute a on a.attrelid = i.indrelid and a.attnum = k.num order by k.pos
      ) as columns
      from pg_index i join pg_class t on t.oid = i.indrelid
      where t.relname = ${table} and t.relnamespace = current_schema()::regnamespace`.execute(db)
    return rows.map((row) => row.columns)
  }
  const { rows: names } = await sql<{ name: string }>`select name from pragma_index_list(${table})`.execute(db)
  const found: string[][] = []
  for (const { name } of names) {
    const { rows } = await sql<{ name: string }>`select name from pragma_index_info(${name}) order by seqno`.execute(db)
    found.push(rows.map((row) => row.name))
  }
  const { rows: key } = await sql<{ name: string; type: string }>`
    select name, type from pragma_table_info(${table}) where pk > 0`.execute(db)
  if (key.length === 1 && key[0]?.type.toLowerCase() === 'integer') found.push([key[0].name])
  return found
}
