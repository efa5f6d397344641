/** The operator audit, the alert outbox and the service flags (store/operator). */
export interface OperatorAuditTable {
  id: number
  action: string
  target: string | null
  reason: string | null
  created_at: string
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

export interface ServiceFlagTable {
  name: string
  value: string
  updated_at: string
}

declare module '../../db/schema.ts' {
  interface Schema {
    operator_audit: OperatorAuditTable
    alert_outbox: AlertOutboxTable
    service_flags: ServiceFlagTable
  }
}
