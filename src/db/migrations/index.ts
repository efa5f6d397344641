import { sql } from 'kysely'
import { Migrator, type Migration, type MigrationProvider } from 'kysely/migration'
import type { Db } from '../database.ts'
import { isPostgres } from '../dialect.ts'
import * as foundation from './001-foundation.ts'
import * as notesFeedbackUsage from './002-notes-feedback-usage.ts'
import * as operatorsDraftsReports from './003-operators-drafts-reports.ts'
import * as wideIdsPayloadHashes from './004-wide-ids-payload-hashes.ts'
import * as pepperedSecrets from './005-peppered-secrets.ts'
import * as writePath from './006-write-path.ts'
import * as learning from './007-learning.ts'
import * as pilot from './008-pilot.ts'
import * as walletServices from './009-wallet-services.ts'
import * as search from './010-search.ts'
import * as quarantineTimes from './011-quarantine-times.ts'
import * as appreciationIndex from './012-appreciation-index.ts'
import * as searchStaging from './013-search-staging.ts'
import * as publicationRoom from './014-publication-room.ts'

/** The explicit, ordered list of migrations. Add new files here; never edit a landed one. */
export const MIGRATIONS: Readonly<Record<string, Migration>> = {
  '001-foundation': foundation,
  '002-notes-feedback-usage': notesFeedbackUsage,
  '003-operators-drafts-reports': operatorsDraftsReports,
  '004-wide-ids-payload-hashes': wideIdsPayloadHashes,
  '005-peppered-secrets': pepperedSecrets,
  '006-write-path': writePath,
  '007-learning': learning,
  '008-pilot': pilot,
  '009-wallet-services': walletServices,
  '010-search': search,
  '011-quarantine-times': quarantineTimes,
  '012-appreciation-index': appreciationIndex,
  '013-search-staging': searchStaging,
  '014-publication-room': publicationRoom,
}

const provider: MigrationProvider = { getMigrations: async () => MIGRATIONS }

/**
 * Brings the schema up to date. Several instances starting at once against one PostgreSQL database
 * migrate exactly once (see withMigrationLock).
 */
export async function migrate(db: Db): Promise<void> {
  await withMigrationLock(db, async () => {
    // Kysely looks for its migration tables in every schema unless told which: a database holding
    // several schemas (one per test file, or per tenant) would otherwise skip creating its own.
    const migrationTableSchema = isPostgres(db) ? await currentSchema(db) : undefined
    const { error, results } = await new Migrator({ db, provider, migrationTableSchema }).migrateToLatest()
    const failed = results?.find((r) => r.status === 'Error')
    if (error || failed) {
      const reason = error instanceof Error ? error.message : String(error ?? 'unknown error')
      throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${reason}`.replace('  ', ' '))
    }
  })
}

/** Any constant shared by every Clearing process: "Clearing" in ASCII. */
const MIGRATION_LOCK = sql.raw(String(0x436c656172696e67n))

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
