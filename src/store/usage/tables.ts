/** The usage counters behind view=usage (store/usage). */
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

declare module '../../db/schema.ts' {
  interface Schema {
    usage_totals: UsageTotalTable
    usage_deltas: UsageDeltaTable
    usage_model_labels: UsageModelLabelTable
    usage_participants: UsageParticipantTable
  }
}
