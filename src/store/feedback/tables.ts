/** Feedback reports and their reviews (store/feedback). */
export interface FeedbackTable {
  id: number
  participant_id: string
  category: string
  content: string | null
  client_id: string
  outcome: string | null
  fit: number | null
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
}

export interface FeedbackReviewTable {
  id: number
  feedback_id: number
  status: string
  response: string
  alignment: string
  evidence: string | null
  client_id: string
  created_at: string
  /** Canonical hash of the write's payload (services/idempotency.ts). */
  payload_hash: string | null
}

declare module '../../db/schema.ts' {
  interface Schema {
    feedback: FeedbackTable
    feedback_reviews: FeedbackReviewTable
  }
}
