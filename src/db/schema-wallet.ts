/**
 * Tables of the wallet side (migration 009): sign-in nonces and sessions, participant links, tip
 * receipts, service agreements and orders. Secrets (nonces, session tokens) are stored as peppered
 * digests only. Wallet addresses are kept checksummed and are never part of a public read.
 */

export interface WalletNonceTable {
  nonce_digest: string
  address: string
  issued_at: string
  expires_at: string
  used_at: string | null
}

export interface WalletSessionTable {
  token_digest: string
  address: string
  created_at: string
  expires_at: string
  revoked_at: string | null
}

export interface WalletLinkTable {
  participant_id: string
  address: string
  linked_at: string
}

export interface TipReceiptTable {
  id: string
  seq: number
  tx_hash: string
  value_wei: string
  confirmations: number
  /** The signed-in wallet that sent the tip, when a session was given and it is the sender. */
  address: string | null
  verified_at: string
}

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

export interface WalletTables {
  wallet_nonces: WalletNonceTable
  wallet_sessions: WalletSessionTable
  wallet_links: WalletLinkTable
  tip_receipts: TipReceiptTable
  service_agreements: ServiceAgreementTable
  service_orders: ServiceOrderTable
}
