import assert from 'node:assert/strict'
import { setTimeout as sleep } from 'node:timers/promises'
import { test } from 'node:test'
import { sql } from 'kysely'
import { openStore } from '../../src/store/open.ts'
import { migrate, withMigrationLock } from '../../src/db/migrate.ts'
import { dialect, freshDatabase } from '../support/database.ts'

/**
 * Kysely's migrator reads the whole catalog before it locks; PostgreSQL's catalog functions fail
 * when another schema's migration drops a column meanwhile. Clearing's lock covers both.
 */
test(
  'a migration waits, catalog reads included, while another holds the migration lock',
  { skip: dialect !== 'postgres' },
  async () => {
    const [holder, waiter] = await Promise.all([freshDatabase(), freshDatabase()])
    const first = openStore(holder.url)
    const second = openStore(waiter.url)
    let release = () => {}
    try {
      // Held once fn runs: other test files' migrations take the same lock, so a fixed wait could
      // start the second migration before the first had it.
      let locked = () => {}
      const holding = new Promise<void>((resolve) => (locked = resolve))
      const held = withMigrationLock(first.db, () => {
        locked()
        return new Promise<void>((resolve) => (release = resolve))
      })
      await holding
      let done = false
      const migrating = migrate(second.db).then(() => (done = true))
      await sleep(500)
      assert.equal(done, false, 'the second migration has not run')
      const { rows } = await sql<{
        n: number
      }>`select count(*)::int as n from pg_tables where schemaname = current_schema()`.execute(second.db)
      assert.equal(rows[0]?.n, 0, 'not even the migration tables exist yet: nothing ran before the lock')
      release()
      await held
      await migrating
      assert.equal(done, true)
      const tables = await sql<{
        n: number
      }>`select count(*)::int as n from pg_tables where schemaname = current_schema() and tablename = 'participants'`.execute(
        second.db,
      )
      assert.equal(tables.rows[0]?.n, 1, 'migrated once the lock was free')
    } finally {
      // A failed assertion must not leave the lock held: every later migration of the run would wait.
      release()
      await Promise.all([first.close(), second.close()])
    }
  },
)
