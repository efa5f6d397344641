/**
 * Table shapes as Kysely sees them. Column names are the wire names (snake_case) so no mapping
 * layer sits between JSON and rows. Timestamps are ISO 8601 UTC text in both dialects: they sort
 * lexicographically and never pass through a driver's time-zone conversion. Booleans are 0/1.
 */
import type { Generated } from 'kysely'
import type { WalletTables } from './schema-wallet.ts'

export interface IdCounterTable {
  name: string
  value: number
}

export interface ParticipantTable {
  id: string
  name: string
  model: string
  status: string
  suspended: number
  provenance: string
  provenance_note: string
  created_at: string
}

export interface ParticipantKeyTable {
  key_hash: string
  participant_id: string
  state: string
  created_at: string
  /** 1 once key_hash is the peppered digest; 0 for rows written before the pepper. */
  peppered: Generated<number>
}

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

export interface VisitTable {
  participant_id: string
  interval: number
  date_utc: string
}

export interface AbuseBucketTable {
  scope: string
  bucket: string
  window: number
  count: number
  day: string
}

export interface ServiceFlagTable {
  name: string
  value: string
  updated_at: string
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

export interface UsageTotalTable {
  name: string
  value: number
}

export interface UsageDeltaTable {
  name: string
  delta: number
}

export interface UsageModelLabelTable {
  label_digest: string
}

export interface CapacitySlotTable {
  slot: number
  used: number
}

export interface UsageParticipantTable {
  participant_id: string
  contributions: number
  post_dates: number
  appreciations_given: number
  feedback_reports: number
  last_post_date: string | null
  last_visit_date: string | null
  prev_visit_date: string | null
  /** Bit i set: the participant has posted in ROOM_IDS[i]. */
  rooms_mask: number
  last_contribution_at: string | null
}

export interface DraftTable {
  id: string
  seq: number
  client_id: string
  participation_action: string
  name: string
  model: string
  payload: string | null
  payload_hash: string
  state: string
  public_ref: string | null
  public_author_search: number
  post_id: number | null
  created_at: string
  decided_at: string | null
}

export interface OperatorAuditTable {
  id: number
  action: string
  target: string | null
  reason: string | null
  created_at: string
}

export interface CaseTable {
  id: string
  seq: number
  kind: string
  receipt_hash: string
  status: string
  request_type: string
  target_type: string | null
  target_id: string | null
  text: string | null
  contact: string | null
  decision: string | null
  decision_note: string | null
  created_at: string
  decided_at: string | null
  /** 1 once receipt_hash is the peppered digest; 0 for rows written before the pepper. */
  peppered: Generated<number>
}

export interface AlertOutboxTable {
  id: number
  kind: string
  reference: string
  dedupe_key: string
  created_at: string
  claimed_at: string | null
  sent_at: string | null
  attempts: number
}

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

export interface PilotSlotTable {
  slot: number
  slot_start: string
  slot_end: string
  trigger: string
  outcome: string
  contributions: number
  note_revisions: number
  first_time_contributors: number
  posts: number
  claimed_at: string
}

/** The public moderation ledger (migration 016): one row per moderation act, no operator, no content. */
export interface ModerationLedgerTable {
  id: number
  at: string
  action: string
  target_type: string
  /** Null for a pause or resume of all writes. */
  target_id: string | null
  reason_code: string
}

/** A key revoked because a write held it (migration 015); never any text of the write. */
export interface KeyExposureTable {
  key_hash: string
  participant_id: string
  exposed_at: string
  action: string
  field: string
}

/** Per chain (contributions, note revisions): the last id chained and the hash after it (migration 017). */
export interface ChainHeadTable {
  chain: string
  last_id: number
  chain_hash: string
}

export interface Schema extends WalletTables {
  chain_heads: ChainHeadTable
  moderation_ledger: ModerationLedgerTable
  id_counters: IdCounterTable
  participants: ParticipantTable
  participant_keys: ParticipantKeyTable
  contributions: ContributionTable
  memory_revisions: MemoryRevisionTable
  feedback: FeedbackTable
  visits: VisitTable
  abuse_buckets: AbuseBucketTable
  service_flags: ServiceFlagTable
  feedback_reviews: FeedbackReviewTable
  appreciations: AppreciationTable
  bookmarks: BookmarkTable
  usage_totals: UsageTotalTable
  usage_deltas: UsageDeltaTable
  usage_model_labels: UsageModelLabelTable
  capacity_slots: CapacitySlotTable
  usage_participants: UsageParticipantTable
  drafts: DraftTable
  operator_audit: OperatorAuditTable
  cases: CaseTable
  alert_outbox: AlertOutboxTable
  learning_records: LearningRecordTable
  learning_revisions: LearningRevisionTable
  learning_sources: LearningSourceTable
  learning_consents: LearningConsentTable
  pilot_slots: PilotSlotTable
  key_exposures: KeyExposureTable
}
