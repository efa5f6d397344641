import assert from 'node:assert/strict'
import { test } from 'node:test'
import { sql } from 'kysely'
import { declaredTables } from '../../scripts/tables/declared.ts'
import { migratedTables } from '../../scripts/tables/migrated.ts'
import { tableDrift } from '../../scripts/tables/shape.ts'
import { dialect, freshDatabase } from '../support/database.ts'

// What `npm run check` runs (scripts/check-tables.ts), here on the dialect of the test run.

test('the table types the store declares agree with the migrated schema', async () => {
  const { url } = await freshDatabase()
  const declared = declaredTables()
  assert.ok(declared.has('contributions') && declared.has('service_orders'), 'tables are read from src/store')
  assert.deepEqual(tableDrift(declared, await migratedTables(url), dialect), [])
})

test('a table or column on one side only, and a nullability that disagrees, are each reported', async () => {
  const { url } = await freshDatabase()
  // A store declares a table no migration makes, and one whose nullability is wrong ...
  const declared = declaredTables(`
    declare module '../db/schema.ts' {
      interface Schema {
        drift_pins: { contribution_id: number; pinned_at: string }
        drift_notes: { id: number | null; note: string; gone: string }
      }
    }
    export {}
  `)
  // ... while the database grows a column nobody declared and a table typed differently.
  const migrated = await migratedTables(url, async (db) => {
    await sql`alter table contributions add column pinned_at text`.execute(db)
    await sql`create table drift_notes (id integer not null, note text)`.execute(db)
  })
  assert.deepEqual(tableDrift(declared, migrated, dialect).sort(), [
    `column contributions.pinned_at exists on ${dialect} but is not declared (src/store/contributions/tables.ts)`,
    `column drift_notes.gone is declared (src/store/__drift__.ts) but missing on ${dialect}`,
    `column drift_notes.id is nullable as declared (src/store/__drift__.ts) but not null on ${dialect}`,
    `column drift_notes.note is not null as declared (src/store/__drift__.ts) but nullable on ${dialect}`,
    `table drift_pins is declared (src/store/__drift__.ts) but no migration creates it on ${dialect}`,
  ])
})

test('a migrated table no store declares is reported', () => {
  const migrated = new Map([['drift_pins', { columns: new Map([['id', false]]), source: 'sqlite' }]])
  assert.deepEqual(tableDrift(new Map(), migrated, 'sqlite'), [
    'table drift_pins exists on sqlite but no store declares its type (src/store/<resource>/tables.ts)',
  ])
})
