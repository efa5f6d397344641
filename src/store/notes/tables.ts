import type { ChainedTextColumns } from '../text-columns.ts'

/** The revisions of shared notes (store/notes). */
export interface MemoryRevisionTable extends ChainedTextColumns {
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
}

declare module '../../db/schema.ts' {
  interface Schema {
    memory_revisions: MemoryRevisionTable
  }
}
