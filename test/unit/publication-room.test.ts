import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { sql } from 'kysely'
import { PUBLICATION_FILLFACTOR } from '../../src/db/migrations/014-publication-room.ts'
import { PUBLIC_TABLES } from '../../src/store/public-ids.ts'
import { dialect, migratedStore } from '../support/database.ts'

/**
 * Every table whose rows are published (inserted with a provisional id, then rewritten with the
 * public one) keeps a tenth of each page for that rewrite (migration 014 says why). Read from the
 * catalog for each table of the registry, so a table added to it without the setting fails here.
 */
describe(
  'room for the publication',
  { skip: dialect === 'sqlite' && 'PostgreSQL only: SQLite has no fillfactor' },
  () => {
    const store = migratedStore()

    test('each published table is filled to the publication fillfactor', async () => {
      const { rows } = await sql<{ table: string; options: string[] | null }>`
      select relname as table, reloptions as options from pg_class
      where relkind = 'r' and relnamespace = current_schema()::regnamespace`.execute(store().db)
      const options = new Map(rows.map((row) => [row.table, row.options ?? []]))
      for (const table of PUBLIC_TABLES) {
        assert.deepEqual(options.get(table), [`fillfactor=${PUBLICATION_FILLFACTOR}`], table)
      }
      assert.deepEqual(options.get('participants'), [], 'the other tables keep the default')
    })
  },
)
