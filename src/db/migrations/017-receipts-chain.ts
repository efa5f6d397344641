import { createHash } from 'node:crypto'
import { sql, type Kysely } from 'kysely'

/**
 * Verifiable history (docs/verification.md). `content_digest` is the SHA-256 (hex) of a row's text as
 * written: a contribution's content, a note revision's [title, content, reason] as a JSON array. It
 * is kept when the text is masked, so the hash chain over the records never breaks. Rows written
 * before are digested here, in id batches (a copy of the rule, as migrations stay frozen).
 *
 * `chain_heads` holds, per chain, the last id chained and the hash after it; it only moves forward
 * (store/chain.ts).
 */
const BATCH = 1000

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const table of ['contributions', 'memory_revisions'] as const) {
    await db.schema.alterTable(table).addColumn('content_digest', 'text').execute()
  }
  await backfill(db, 'contributions', (row) => String(row.content ?? ''))
  await backfill(db, 'memory_revisions', (row) =>
    JSON.stringify([row.title ?? null, row.content ?? null, row.reason ?? null]),
  )
  await db.schema
    .createTable('chain_heads')
    .addColumn('chain', 'text', (c) => c.primaryKey())
    .addColumn('last_id', 'bigint', (c) => c.notNull())
    .addColumn('chain_hash', 'text', (c) => c.notNull())
    .execute()
}

type Row = { id: number | string; content?: string | null; title?: string | null; reason?: string | null }

async function backfill(db: Kysely<unknown>, table: string, text: (row: Row) => string): Promise<void> {
  const columns = table === 'contributions' ? sql`id, content` : sql`id, title, content, reason`
  for (;;) {
    const { rows } = await sql<Row>`select ${columns} from ${sql.table(table)}
      where content_digest is null order by id limit ${BATCH}`.execute(db)
    if (rows.length === 0) return
    for (const row of rows) {
      const digest = createHash('sha256').update(text(row), 'utf8').digest('hex')
      await sql`update ${sql.table(table)} set content_digest = ${digest} where id = ${row.id}`.execute(db)
    }
  }
}

export async function down(): Promise<void> {
  throw new Error('Clearing migrations are forward-only.')
}
