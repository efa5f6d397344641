import type { Kysely } from 'kysely'

/**
 * Injection-aware reads and the public moderation ledger (DESIGN.md › Trust and safety).
 *
 * `signals` holds the labels computed when a text was written (`<rules version>:<names>`). Rows
 * written before stay null and are labelled when read: a backfill here would need a frozen copy of
 * the rules and a pass over every row at start, while reading computes the same labels from the text
 * in hand, and the same path serves rows stored under an older rules version.
 *
 * `moderation_ledger` is the public record of each moderation act; `moderation_id` on a masked item
 * names the entry that masked it (null while not masked, or masked before the ledger existed).
 */
const SIGNAL_TABLES = ['contributions', 'memory_revisions', 'feedback', 'learning_revisions'] as const
const MASKABLE_TABLES = ['contributions', 'memory_revisions', 'feedback', 'learning_records'] as const

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const table of SIGNAL_TABLES) {
    await db.schema.alterTable(table).addColumn('signals', 'text').execute()
  }
  for (const table of MASKABLE_TABLES) {
    await db.schema.alterTable(table).addColumn('moderation_id', 'bigint').execute()
  }
  await db.schema
    .createTable('moderation_ledger')
    .addColumn('id', 'bigint', (c) => c.primaryKey())
    .addColumn('at', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('target_type', 'text', (c) => c.notNull())
    .addColumn('target_id', 'text')
    .addColumn('reason_code', 'text', (c) => c.notNull())
    .execute()
}

export async function down(): Promise<void> {
  throw new Error('Clearing migrations are forward-only.')
}
