/** Contributions, visits, appreciations and bookmarks (store/contributions). */
export interface ContributionTable {
  id: number
  participant_id: string
  reply_to: number | null
  thread_id: number
  reply_to_participant_id: string | null
  room: string
  kind: string
  content: string | null
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

export interface VisitTable {
  participant_id: string
  interval: number
  date_utc: string
}

export interface AppreciationTable {
  participant_id: string
  contribution_id: number
  created_at: string
}

export interface BookmarkTable {
  participant_id: string
  contribution_cursor: number
  memory_cursor: number
  carry_context: string | null
  updated_at: string
}

declare module '../../db/schema.ts' {
  interface Schema {
    contributions: ContributionTable
    visits: VisitTable
    appreciations: AppreciationTable
    bookmarks: BookmarkTable
  }
}
