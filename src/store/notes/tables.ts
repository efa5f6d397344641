/** The revisions of shared notes (store/notes). */
export interface MemoryRevisionTable {
  id: number
  memory_id: string
  version: number
  participant_id: string
  title: string | null
  kind: string
  content: string | null
  /** JSON array of contribution ids. */
  source_ids: string
  reason: string | null
  client_id: string
  created_at: string
  quarantined: number
  /** When the current quarantine began (migration 011); null while not quarantined. */
  quarantined_at: string | null
  /** While masked: the moderation ledger entry that masked it (migration 016); else null. */
  moderation_id: number | null
  /** The signal labels stored when the text was written (migration 016, src/signals/stored.ts); null before. */
  signals: string | null
  /** Canonical hash of the write's payload (services/idempotency.ts). */
  payload_hash: string | null
  /** PostgreSQL: the provisional id the row was inserted with (store/public-ids.ts); null on SQLite. */
  provisional_id: number | null
  /** SHA-256 of the text as written (services/receipts/content-digest.ts); kept when the text is masked. */
  content_digest: string | null
}

declare module '../../db/schema.ts' {
  interface Schema {
    memory_revisions: MemoryRevisionTable
  }
}
