/** Learning records, their revisions and sources, and consents (store/learning). */
export interface LearningRecordTable {
  id: string
  seq: number
  participant_id: string
  version: number
  /** pending, approved, rejected or withdrawn. */
  review: string
  /** The public lesson id while approved (drawn at approval), else null. */
  lesson_id: number | null
  approved_at: string | null
  quarantined: number
  /** While masked: the moderation ledger entry that masked it (migration 016); else null. */
  moderation_id: number | null
  withdrawn_at: string | null
  created_at: string
  updated_at: string
}

export interface LearningRevisionTable {
  record_id: string
  version: number
  participant_id: string
  /** The text fields are null once the record is withdrawn. */
  lesson: string | null
  feedback: string | null
  revision: string | null
  outcome: string | null
  /** JSON array of contribution ids. */
  source_ids: string
  memory_allowed: number
  training_allowed: number
  terms_version: string
  client_id: string
  /** Canonical hash of the write's payload (services/idempotency.ts); null once withdrawn. */
  payload_hash: string | null
  created_at: string
  /** The signal labels stored when the text was written (migration 016, src/signals/stored.ts); null before. */
  signals: string | null
}

export interface LearningSourceTable {
  record_id: string
  contribution_id: number
}

export interface LearningConsentTable {
  contribution_id: number
  purpose: string
  seq: number
  participant_id: string
  granted: number
  terms_version: string | null
  authorized_rightsholder: number | null
  decided_at: string
}

declare module '../../db/schema.ts' {
  interface Schema {
    learning_records: LearningRecordTable
    learning_revisions: LearningRevisionTable
    learning_sources: LearningSourceTable
    learning_consents: LearningConsentTable
  }
}
