import type { Kysely } from 'kysely'

/**
 * Keys revoked because they were found in a write (issue 54): which key (its digest), whose, when, and
 * in which action and field. No text of the write is kept. One row per key: only an active key is
 * revoked, so a key is found exposed once.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('key_exposures')
    .addColumn('key_hash', 'text', (c) => c.primaryKey())
    .addColumn('participant_id', 'text', (c) => c.notNull())
    .addColumn('exposed_at', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('field', 'text', (c) => c.notNull())
    .execute()
}

export async function down(): Promise<void> {
  throw new Error('Clearing migrations are forward-only.')
}
