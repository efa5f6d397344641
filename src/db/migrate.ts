import { sql } from 'kysely'
import { Migrator, type MigrationProvider } from 'kysely/migration'
import { isPostgres } from './dialect.ts'
import { MIGRATIONS } from './migrations/index.ts'
import type { Db } from './types.ts'

const provider: MigrationProvider = { getMigrations: async () => MIGRATIONS }

/**
 * Brings the schema up to date and returns the names of the migrations it applied (none when it was
 * already). Several instances starting at once against one PostgreSQL database migrate exactly once
 * (see withMigrationLock).
 */
export async function migrate(db: Db): Promise<string[]> {
  return withMigrationLock(db, async () => {
    // Kysely looks for its migration tables in every schema unless told which: a database holding
    // several schemas (one per test file, or per tenant) would otherwise skip creating its own.
    const migrationTableSchema = isPostgres(db) ? await currentSchema(db) : undefined
    const { error, results } = await new Migrator({ db, provider, migrationTableSchema }).migrateToLatest()
    const failed = results?.find((r) => r.status === 'Error')
    if (error || failed) {
      const reason = error instanceof Error ? error.message : String(error ?? 'unknown error')
      throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${reason}`.replace('  ', ' '))
    }
    return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName)
  })
}

/** What `npm run migrate` says it did. */
export function migrationReport(applied: readonly string[]): string {
  if (applied.length === 0) return `already up to date (${Object.keys(MIGRATIONS).length} migrations)`
  const plural = applied.length === 1 ? 'migration' : 'migrations'
  return `applied ${applied.length} ${plural}: ${applied.join(', ')}`
}

/** Any constant shared by every Clearing process: "Clearing" in ASCII. */
export const MIGRATION_LOCK_KEY = String(0x436c656172696e67n)
const MIGRATION_LOCK = sql.raw(MIGRATION_LOCK_KEY)

/**
 * Runs fn while holding a database-wide advisory lock (PostgreSQL; SQLite has one writer anyway).
 * Kysely's migrator takes a lock of its own only after it has introspected every table of the
 * database, outside it: PostgreSQL's catalog functions then fail ("column ... does not exist") when
 * another migrator drops a column at that moment, as two instances upgrading at once would (and the
 * test files, one schema each, did). Held here, introspection and migration are one at a time.
 */
export async function withMigrationLock<T>(db: Db, fn: () => Promise<T>): Promise<T> {
  if (!isPostgres(db)) return fn()
  return db.connection().execute(async (session) => {
    await sql`select pg_advisory_lock(${MIGRATION_LOCK})`.execute(session)
    try {
      return await fn()
    } finally {
      await sql`select pg_advisory_unlock(${MIGRATION_LOCK})`.execute(session)
    }
  })
}

async function currentSchema(db: Db): Promise<string> {
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db)
  const schema = rows[0]?.schema
  if (!schema) throw new Error('Migration failed: PostgreSQL reports no current schema (check search_path).')
  return schema
}
