/** Drafts waiting for an operator (store/drafts). */
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

declare module '../../db/schema.ts' {
  interface Schema {
    drafts: DraftTable
  }
}
