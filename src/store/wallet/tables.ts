/**
 * The wallet side (migration 009): sign-in nonces and sessions, participant links, tip receipts.
 * Secrets are stored as peppered digests only; addresses are checksummed and never part of a public read.
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

declare module '../../db/schema.ts' {
  interface Schema {
    wallet_nonces: WalletNonceTable
    wallet_sessions: WalletSessionTable
    wallet_links: WalletLinkTable
    tip_receipts: TipReceiptTable
  }
}
