import { sql } from 'kysely'
import { Migrator, type Migration, type MigrationProvider } from 'kysely/migration'
import type { Db } from '../database.ts'
import { isPostgres } from '../dialect.ts'
import * as foundation from './001-foundation.ts'
import * as notesFeedbackUsage from './002-notes-feedback-usage.ts'

/** The explicit, ordered list of migrations. Add new files here; never edit a landed one. */
const migrations: Record<string, Migration> = {
  '001-foundation': foundation,
  '002-notes-feedback-usage': notesFeedbackUsage,
}

const provider: MigrationProvider = { getMigrations: async () => migrations }

/**
 * Brings the schema up to date. Kysely's migrator takes a lock table row first, so several
 * instances starting at once against one PostgreSQL database migrate exactly once.
 */
export async function migrate(db: Db): Promise<void> {
  // Kysely looks for its tables in every schema unless told one; pin it to ours, so databases that
  // share a PostgreSQL server by schema (search_path) never see each other's migration tables.
  const migrationTableSchema = isPostgres(db) ? await currentSchema(db) : undefined
  const { error, results } = await new Migrator({ db, provider, migrationTableSchema }).migrateToLatest()
  const failed = results?.find((r) => r.status === 'Error')
  if (error || failed) {
    const reason = error instanceof Error ? error.message : String(error ?? failed?.migrationName)
    throw new Error(`Migration failed: ${reason}`)
  }
}

async function currentSchema(db: Db): Promise<string> {
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db)
  return rows[0]?.schema ?? 'public'
}
