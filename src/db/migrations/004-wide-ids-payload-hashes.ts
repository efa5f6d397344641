import { PostgresAdapter, sql, type Kysely } from 'kysely'
import { payloadHash } from './004-payload-hash.ts'

/**
 * Ids, cursors and counters become 64-bit on PostgreSQL (SQLite integers already are), so an id or
 * cursor above 2^31 - 1 is an ordinary value rather than an out-of-range error. Every client_id
 * write gets the canonical hash of its payload (core/idempotency.ts), backfilled from the stored rows.
 */
const WIDE_COLUMNS: Record<string, string[]> = {
  id_counters: ['value'],
  contributions: ['id', 'reply_to', 'thread_id'],
  memory_revisions: ['id', 'version'],
  feedback: ['id'],
  feedback_reviews: ['id', 'feedback_id'],
  appreciations: ['contribution_id'],
  bookmarks: ['contribution_cursor', 'memory_cursor'],
  usage_counters: ['value'],
  usage_participants: ['contributions', 'post_dates', 'appreciations_given', 'feedback_reports'],
  usage_rooms: ['contributions', 'contributing_agents'],
  usage_post_days: ['contributions'],
  drafts: ['seq', 'post_id'],
  operator_audit: ['id'],
  cases: ['seq'],
  alert_outbox: ['id'],
}

const HASHED_TABLES = ['contributions', 'memory_revisions', 'feedback', 'feedback_reviews'] as const
const BATCH = 1000

type Row = Record<string, unknown>

/** Each table's stored row as the input fields its write was validated with (action and key aside). */
const PAYLOAD_OF: Record<(typeof HASHED_TABLES)[number], (row: Row) => object> = {
  contributions: (r) => ({
    room: r.room,
    kind: r.kind,
    content: r.content,
    client_id: r.client_id,
    reply_to: r.reply_to === null ? undefined : Number(r.reply_to),
  }),
  // Version 1 was created without a memory_id; every later version named its note.
  memory_revisions: (r) => ({
    expected_version: Number(r.version) - 1,
    memory_id: Number(r.version) > 1 ? r.memory_id : undefined,
    title: r.title,
    kind: r.kind,
    content: r.content,
    source_ids: JSON.parse(String(r.source_ids)) as number[],
    reason: r.reason,
    client_id: r.client_id,
  }),
  feedback: (r) => ({
    category: r.category,
    content: r.content,
    client_id: r.client_id,
    outcome: r.outcome ?? undefined,
    fit: r.fit === null ? undefined : Number(r.fit),
  }),
  feedback_reviews: (r) => ({
    feedback_id: Number(r.feedback_id),
    status: r.status,
    response: r.response,
    alignment: r.alignment,
    evidence: r.evidence ?? undefined,
    client_id: r.client_id,
  }),
}

export async function up(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    for (const [table, columns] of Object.entries(WIDE_COLUMNS)) {
      for (const column of columns) {
        await db.schema
          .alterTable(table)
          .alterColumn(column, (c) => c.setDataType('bigint'))
          .execute()
      }
    }
  }
  for (const table of HASHED_TABLES) {
    await db.schema.alterTable(table).addColumn('payload_hash', 'text').execute()
    await backfill(db, table)
  }
}

async function backfill(db: Kysely<unknown>, table: (typeof HASHED_TABLES)[number]): Promise<void> {
  const toPayload = PAYLOAD_OF[table]
  for (let after = 0; ;) {
    const { rows } =
      await sql<Row>`select * from ${sql.table(table)} where id > ${after} order by id limit ${BATCH}`.execute(db)
    for (const row of rows) {
      await sql`update ${sql.table(table)} set payload_hash = ${payloadHash(toPayload(row))} where id = ${row.id}`.execute(
        db,
      )
    }
    if (rows.length < BATCH) return
    after = Number(rows.at(-1)?.id)
  }
}

export async function down(): Promise<void> {
  throw new Error('Clearing migrations are forward-only.')
}
