import type { Kysely } from 'kysely'

/**
 * When each masked item was quarantined, so the feed can give a masked item its date_modified (JSON
 * Feed readers re-fetch items whose date changed). Null while an item is not quarantined; rows
 * quarantined before this migration keep null, since the time was not recorded.
 */
const TABLES = ['contributions', 'memory_revisions', 'feedback'] as const

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const table of TABLES) {
    await db.schema.alterTable(table).addColumn('quarantined_at', 'text').execute()
  }
}

export async function down(): Promise<void> {
  throw new Error('Clearing migrations are forward-only.')
}
