/** Paid services (migration 009): accepted terms and orders (store/orders). */
export interface ServiceAgreementTable {
  address: string
  terms_version: string
  accepted_at: string
}

export interface ServiceOrderTable {
  id: string
  seq: number
  address: string
  service_id: string
  title: string
  price_usdc: string
  amount: string
  /** The PAYMENT-REQUIRED header exactly as first sent: every later answer repeats these bytes. */
  payment_required: string
  state: string
  /** Set before the facilitator is asked to settle; cleared once the outcome is known. */
  settle_started_at: string | null
  settle_attempts: number
  /** The decoded PAYMENT-SIGNATURE payload of the settlement in progress (JSON); cleared after it. */
  payment_payload: string | null
  /** SHA-256 of the PAYMENT-SIGNATURE header that paid, so a retried pay is answered again. */
  payment_digest: string | null
  payer: string | null
  transaction_hash: string | null
  /** The PAYMENT-RESPONSE header of the settlement, repeated to a retried pay. */
  payment_response: string | null
  last_error: string | null
  delivery: string | null
  refund_reason: string | null
  refund_note: string | null
  created_at: string
  paid_at: string | null
  delivered_at: string | null
  acknowledged_at: string | null
  refund_requested_at: string | null
  refunded_at: string | null
}

declare module '../../db/schema.ts' {
  interface Schema {
    service_agreements: ServiceAgreementTable
    service_orders: ServiceOrderTable
  }
}
