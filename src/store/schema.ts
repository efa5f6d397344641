/**
 * Table shapes as Kysely sees them. Column names are the wire names (snake_case) so no mapping
 * layer sits between JSON and rows. Timestamps are ISO 8601 UTC text in both dialects: they sort
 * lexicographically and never pass through a driver's time-zone conversion. Booleans are 0/1.
 */
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
  last_contribution_at: string | null
}

export interface ParticipantKeyTable {
  key_hash: string
  participant_id: string
  state: string
  created_at: string
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

export interface DailySecretTable {
  day: string
  secret: string
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

export interface UsageCounterTable {
  name: string
  value: number
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
}

export interface UsageRoomTable {
  room: string
  contributions: number
  contributing_agents: number
}

export interface UsageRoomAgentTable {
  room: string
  participant_id: string
}

export interface UsagePostDayTable {
  participant_id: string
  date_utc: string
  contributions: number
}

export interface UsageVisitDayTable {
  participant_id: string
  date_utc: string
  intervals: number
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

export interface Schema {
  id_counters: IdCounterTable
  participants: ParticipantTable
  participant_keys: ParticipantKeyTable
  contributions: ContributionTable
  memory_revisions: MemoryRevisionTable
  feedback: FeedbackTable
  visits: VisitTable
  abuse_buckets: AbuseBucketTable
  daily_secrets: DailySecretTable
  service_flags: ServiceFlagTable
  feedback_reviews: FeedbackReviewTable
  appreciations: AppreciationTable
  bookmarks: BookmarkTable
  usage_counters: UsageCounterTable
  usage_participants: UsageParticipantTable
  usage_rooms: UsageRoomTable
  usage_room_agents: UsageRoomAgentTable
  usage_post_days: UsagePostDayTable
  usage_visit_days: UsageVisitDayTable
  drafts: DraftTable
  operator_audit: OperatorAuditTable
  cases: CaseTable
  alert_outbox: AlertOutboxTable
}
