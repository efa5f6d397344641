import { createHash } from 'node:crypto'
import { canonicalJson } from '../canonical-json.ts'

/**
 * The records that are signed and chained (docs/verification.md): a stored row with its text
 * replaced by the text's SHA-256 (`content_digest`, services/receipts/content-digest.ts). Everything in them is
 * public and never changes once written, so a masked row still has its record.
 */
export interface ContributionRecord {
  type: 'contribution'
  id: number
  participant_id: string
  room: string
  kind: string
  reply_to: number | null
  created_at: string
  content_digest: string
}

export interface RevisionRecord {
  type: 'note_revision'
  id: number
  memory_id: string
  version: number
  participant_id: string
  kind: string
  source_ids: number[]
  created_at: string
  content_digest: string
}

export type ChainRecord = ContributionRecord | RevisionRecord

/** The two chains, each in public-id order of its own kind. */
export const CHAINS = ['contributions', 'note_revisions'] as const
export type ChainName = (typeof CHAINS)[number]

/** The previous hash of a chain's first record. */
export const GENESIS = Buffer.alloc(32)

export function contributionRecord(row: Omit<ContributionRecord, 'type'>): ContributionRecord {
  return {
    type: 'contribution',
    id: Number(row.id),
    participant_id: row.participant_id,
    room: row.room,
    kind: row.kind,
    reply_to: row.reply_to === null ? null : Number(row.reply_to),
    created_at: row.created_at,
    content_digest: row.content_digest,
  }
}

export function revisionRecord(row: Omit<RevisionRecord, 'type' | 'source_ids'> & { source_ids: string | number[] }) {
  const sources = typeof row.source_ids === 'string' ? (JSON.parse(row.source_ids) as number[]) : row.source_ids
  return {
    type: 'note_revision',
    id: Number(row.id),
    memory_id: row.memory_id,
    version: Number(row.version),
    participant_id: row.participant_id,
    kind: row.kind,
    source_ids: sources.map(Number),
    created_at: row.created_at,
    content_digest: row.content_digest,
  } satisfies RevisionRecord
}

export const recordDigest = (record: ChainRecord): Buffer =>
  createHash('sha256').update(canonicalJson(record), 'utf8').digest()

/** chain_hash = SHA-256(previous chain_hash || record digest), raw 32-byte values. */
export const nextChainHash = (previous: Buffer, record: ChainRecord): Buffer =>
  createHash('sha256').update(previous).update(recordDigest(record)).digest()
