import type { ChainedTextColumns } from '../text-columns.ts'

/** Contributions, visits, appreciations and bookmarks (store/contributions). */
export interface ContributionTable extends ChainedTextColumns {
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
