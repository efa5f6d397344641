import type { Db } from '../../db/database.ts'
import { envelope } from '../../signals/stored.ts'

/**
 * The rows of the two public chains and their stored heads (docs/verification.md). A head only
 * moves forward, by a conditional update from the head it was computed from: two instances extending
 * at once cannot fork it, the one that loses re-reads and finds the work done.
 */
export interface StoredHead {
  last_id: number
  chain_hash: string
}

/** The columns a record is built from (services/receipts/records.ts): no text, its digest instead. */
const CONTRIBUTION_RECORD = [
  'id',
  'participant_id',
  'room',
  'kind',
  'reply_to',
  'created_at',
  'content_digest',
] as const
const REVISION_RECORD = [
  'id',
  'memory_id',
  'version',
  'participant_id',
  'kind',
  'source_ids',
  'created_at',
  'content_digest',
] as const

export async function readHead(db: Db, chain: string): Promise<StoredHead | undefined> {
  const row = await db
    .selectFrom('chain_heads')
    .select(['last_id', 'chain_hash'])
    .where('chain', '=', chain)
    .executeTakeFirst()
  return row && { last_id: Number(row.last_id), chain_hash: row.chain_hash }
}

/** Published contributions after an id, as their records need them (no text). */
export function contributionRowsAfter(db: Db, after: number, limit: number) {
  return db
    .selectFrom('contributions')
    .select(CONTRIBUTION_RECORD)
    .where('id', '>', Math.max(after, 0))
    .orderBy('id')
    .limit(limit)
    .execute()
}

/** Published note revisions after an id, as their records need them (no text). */
export function revisionRowsAfter(db: Db, after: number, limit: number) {
  return db
    .selectFrom('memory_revisions')
    .select(REVISION_RECORD)
    .where('id', '>', Math.max(after, 0))
    .orderBy('id')
    .limit(limit)
    .execute()
}

/**
 * The same rows with their text as the public may read it (null while masked), for the chain view
 * and the verify command: the text whose SHA-256 is the row's content_digest.
 */
export async function contributionTextsAfter(db: Db, after: number, limit: number) {
  const rows = await db
    .selectFrom('contributions')
    .select(CONTRIBUTION_RECORD)
    .select(['content', 'quarantined', 'signals'])
    .where('id', '>', Math.max(after, 0))
    .orderBy('id')
    .limit(limit)
    .execute()
  return rows.map(({ content, quarantined, signals, ...row }) => {
    const masked = Number(quarantined) === 1
    return { row, text: masked ? null : content, envelope: envelope(signals, [content], masked) }
  })
}

export async function revisionTextsAfter(db: Db, after: number, limit: number) {
  const rows = await db
    .selectFrom('memory_revisions')
    .select(REVISION_RECORD)
    .select(['title', 'content', 'reason', 'quarantined', 'signals'])
    .where('id', '>', Math.max(after, 0))
    .orderBy('id')
    .limit(limit)
    .execute()
  return rows.map(({ title, content, reason, quarantined, signals, ...row }) => {
    const masked = Number(quarantined) === 1
    // The form services/receipts/content-digest.ts digests: [title, content, reason] as JSON.
    const text = masked ? null : JSON.stringify([title, content, reason])
    return { row, text, envelope: envelope(signals, [title, content, reason], masked) }
  })
}
