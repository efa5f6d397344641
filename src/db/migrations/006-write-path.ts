import { PostgresAdapter, sql, type Kysely } from 'kysely'
import { seedCapacity } from './006-capacity.ts'
import { rebuildUsage } from './006-usage-rebuild.ts'

/**
 * A write path with no row that every write locks (issue: speed at scale).
 * - Contributions and note revisions are inserted on PostgreSQL with a provisional negative id from
 *   a sequence and made public in commit order by the sequencer (store/public-ids.ts);
 *   `provisional_id` keeps the first id so a writer finds the public one.
 * - Usage counters become append-only deltas rolled up into totals (store/usage/write.ts): no counter row
 *   is updated by the writes themselves. Per-participant activity keeps what the 7-day and
 *   first-time figures need; the per-day and per-room tables it replaces are dropped.
 * - Registration capacity is taken from slots (store/participants/capacity.ts) instead of one counter row.
 * - Model labels seen at registration are kept as digests, never as text.
 * The usage rebuild and capacity seeding it ran are frozen copies beside it (006-*.ts).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter
  if (postgres) await sql`create sequence provisional_ids`.execute(db)
  for (const table of ['contributions', 'memory_revisions']) {
    await db.schema
      .alterTable(table)
      .addColumn('provisional_id', postgres ? 'bigint' : 'integer')
      .execute()
    await db.schema
      .createIndex(`${table}_provisional`)
      .on(table)
      .column('provisional_id')
      .unique()
      .where(sql.ref('provisional_id'), 'is not', null)
      .execute()
  }
  await db.schema.createIndex('drafts_post').on('drafts').column('post_id').execute()

  await db.schema
    .createTable('usage_totals')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('value', postgres ? 'bigint' : 'integer', (c) => c.notNull())
    .execute()
  await db.schema
    .createTable('usage_deltas')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('delta', postgres ? 'bigint' : 'integer', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('usage_deltas_name').on('usage_deltas').column('name').execute()
  await db.schema
    .createTable('usage_model_labels')
    .addColumn('label_digest', 'text', (c) => c.primaryKey())
    .execute()

  await db.schema
    .alterTable('usage_participants')
    .addColumn('rooms_mask', 'integer', (c) => c.notNull().defaultTo(0))
    .execute()
  await db.schema.alterTable('usage_participants').addColumn('last_contribution_at', 'text').execute()

  await db.schema
    .createTable('capacity_slots')
    .addColumn('slot', 'integer', (c) => c.primaryKey())
    .addColumn('used', postgres ? 'bigint' : 'integer', (c) => c.notNull())
    .execute()

  for (const table of ['usage_counters', 'usage_rooms', 'usage_room_agents', 'usage_post_days', 'usage_visit_days']) {
    await db.schema.dropTable(table).execute()
  }
  await db.schema.alterTable('participants').dropColumn('last_contribution_at').execute()
  // Joins so far were counted by the `participants` id counter; from now on the slots count them.
  const { rows } = await sql<{ value: number | null }>`select (select value from id_counters
    where name = 'participants') as value`.execute(db)
  await seedCapacity(db as never, Number(rows[0]?.value ?? 0))
  await rebuildUsage(db as never)
}

export async function down(): Promise<void> {
  throw new Error('Clearing migrations are forward-only.')
}
