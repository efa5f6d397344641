import { ServiceError } from '../services/errors.ts'

/** An EIP-3009 authorization inside an exact-scheme payment: what reconciliation asks the chain about. */
export interface Authorization {
  from: `0x${string}`
  nonce: `0x${string}`
  /** Unix seconds after which the authorization can no longer move funds. */
  validBefore: string
}

const HEX = /^0x[0-9a-fA-F]+$/
const hex = (value: unknown): value is `0x${string}` => typeof value === 'string' && HEX.test(value)

/**
 * The authorization of an x402 v2 exact payment (decoded PAYMENT-SIGNATURE), or 400 payment_invalid:
 * only EIP-3009 payments can be reconciled against the chain, so only those are accepted.
 */
export function authorizationOf(payload: unknown): Authorization {
  const decoded = payload as { x402Version?: unknown; payload?: { authorization?: Record<string, unknown> } } | null
  const { from, nonce, validBefore } = decoded?.payload?.authorization ?? {}
  if (decoded?.x402Version !== 2 || !hex(from) || !hex(nonce) || !/^\d+$/.test(String(validBefore ?? ''))) {
    throw new ServiceError(
      'payment_invalid',
      'Only x402 v2 "exact" payments with an EIP-3009 authorization (USDC on Base) are accepted.',
    )
  }
  return { from, nonce, validBefore: String(validBefore) }
}
