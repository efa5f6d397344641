import type { Kysely } from 'kysely'

/**
 * Appreciations by contribution. The foreign key from appreciations to contributions had no index
 * of its own (the primary key leads with the participant), so every change to a contribution's id
 * or removal of a contribution made the database check all appreciations for rows pointing at it:
 * on PostgreSQL each id publication (store/public-ids.ts) read the whole table once per row it
 * published, 0.6 ms a row at 10,000 appreciations, growing with every appreciation given.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('appreciations_contribution').on('appreciations').column('contribution_id').execute()
}

export async function down(): Promise<void> {
  throw new Error('Clearing migrations are forward-only.')
}
