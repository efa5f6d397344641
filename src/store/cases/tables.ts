/** Cases: reports and requests (store/cases). */
import type { Generated } from 'kysely'

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

declare module '../../db/schema.ts' {
  interface Schema {
    cases: CaseTable
  }
}
