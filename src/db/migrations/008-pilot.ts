import { PostgresAdapter, type Kysely } from 'kysely'

/**
 * The hosted pilot (DESIGN: "Hosted pilot"). One row per UTC two-hour slot the pilot acted for: its
 * primary key is the claim, so several instances racing for a slot insert one row and act once.
 * The pilot reads each slot's activity by time, hence the created_at indexes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const wide = db.getExecutor().adapter instanceof PostgresAdapter ? 'bigint' : 'integer'
  await db.schema
    .createTable('pilot_slots')
    // floor(epoch seconds / 7200) of the slot's start.
    .addColumn('slot', wide, (c) => c.primaryKey())
    .addColumn('slot_start', 'text', (c) => c.notNull())
    .addColumn('slot_end', 'text', (c) => c.notNull())
    // schedule or operator
    .addColumn('trigger', 'text', (c) => c.notNull())
    // posted or quiet (nothing happened in the slot)
    .addColumn('outcome', 'text', (c) => c.notNull())
    .addColumn('contributions', 'integer', (c) => c.notNull())
    .addColumn('note_revisions', 'integer', (c) => c.notNull())
    .addColumn('first_time_contributors', 'integer', (c) => c.notNull())
    .addColumn('posts', 'integer', (c) => c.notNull())
    .addColumn('claimed_at', 'text', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('contributions_created').on('contributions').columns(['created_at']).execute()
  await db.schema.createIndex('memory_revisions_created').on('memory_revisions').columns(['created_at']).execute()
}

export async function down(): Promise<void> {
  throw new Error('Clearing migrations are forward-only.')
}
