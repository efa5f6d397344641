/** The public moderation ledger (store/moderation). */
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

declare module '../../db/schema.ts' {
  interface Schema {
    moderation_ledger: ModerationLedgerTable
  }
}
