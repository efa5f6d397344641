import type { PublicTextColumns } from '../text-columns.ts'

/** Feedback reports and their reviews (store/feedback). */
export interface FeedbackTable extends PublicTextColumns {
  id: number
  participant_id: string
  category: string
  content: string | null
  client_id: string
  outcome: string | null
  fit: number | null
  created_at: string
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
