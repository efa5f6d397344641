import {
  decodePaymentRequiredHeader,
  decodePaymentSignatureHeader,
  encodePaymentRequiredHeader,
  encodePaymentResponseHeader,
} from '@x402/core/http'
import { HTTPFacilitatorClient, x402ResourceServer, type FacilitatorClient } from '@x402/core/server'
import {
  SettleError,
  VerifyError,
  type PaymentPayload,
  type PaymentRequired,
  type PaymentRequirements,
  type SettleResponse,
} from '@x402/core/types'
import { ExactEvmScheme } from '@x402/evm/exact/server'
import type { Config } from '../config.ts'
import { ServiceError } from '../services/errors.ts'
import { authorizationOf, type Authorization } from './authorization.ts'
import { USDC_BASE, X402_NETWORK, type CatalogEntry } from './catalog.ts'

/** Seconds a caller should wait after the facilitator failed or timed out. */
export const FACILITATOR_RETRY_SECONDS = 30
/** How long a buyer's payment authorization may stay valid (x402's default). */
const MAX_TIMEOUT_SECONDS = 300

export type { PaymentPayload, PaymentRequired, PaymentRequirements, SettleResponse }

export type VerifyOutcome = { valid: true; payer: string | null } | { valid: false; reason: string; message: string }

/** `unknown`: the facilitator may or may not have settled (no answer, or a broadcast without a result). */
export type SettleOutcome =
  | { kind: 'settled'; response: SettleResponse }
  | { kind: 'failed'; reason: string; message: string }
  | { kind: 'unknown'; reason: string }

/** x402 v2 "exact" payments in USDC on Base through the configured facilitator (@x402/core, @x402/evm). */
export interface Payments {
  /** The PaymentRequired of one order and its PAYMENT-REQUIRED header, encoded once. */
  requirementFor(service: CatalogEntry, orderId: string, baseUrl: string): Promise<PaymentRequired>
  encodeRequired(paymentRequired: PaymentRequired): string
  decodeRequired(header: string): PaymentRequired
  /** The PAYMENT-SIGNATURE header decoded; payment_invalid unless it is an EIP-3009 exact payment. */
  decodePayment(header: string): { payload: PaymentPayload; authorization: Authorization }
  /** The payment names exactly this requirement (scheme, network, asset, amount, payee). */
  matches(requirement: PaymentRequirements, payload: PaymentPayload): boolean
  verify(payload: PaymentPayload, requirement: PaymentRequirements): Promise<VerifyOutcome>
  settle(payload: PaymentPayload, requirement: PaymentRequirements): Promise<SettleOutcome>
  encodeResponse(response: SettleResponse): string
}

/**
 * The facilitator's supported kind is declared (v2, exact, eip155:8453) rather than fetched at start,
 * so neither starting nor ordering waits on the facilitator; verify and settle go to X402_FACILITATOR_URL.
 */
function declaredFacilitator(http: HTTPFacilitatorClient): FacilitatorClient {
  return {
    getSupported: async () => ({
      kinds: [{ x402Version: 2, scheme: 'exact', network: X402_NETWORK }],
      extensions: [],
      signers: {},
    }),
    verify: (payload, requirements) => http.verify(payload, requirements),
    settle: (payload, requirements) => http.settle(payload, requirements),
  }
}

export async function createPayments(config: Config): Promise<Payments> {
  const http = new HTTPFacilitatorClient({
    url: config.x402FacilitatorUrl ?? undefined,
    timeoutMs: config.x402FacilitatorTimeoutSeconds * 1000,
  })
  const server = new x402ResourceServer(declaredFacilitator(http)).register(X402_NETWORK, new ExactEvmScheme())
  await server.initialize()
  const payTo = config.x402PayTo ?? ''

  return {
    async requirementFor(service, orderId, baseUrl) {
      const requirements = await server.buildPaymentRequirements({
        scheme: 'exact',
        network: X402_NETWORK,
        payTo,
        price: `$${service.price_usdc}`,
        maxTimeoutSeconds: MAX_TIMEOUT_SECONDS,
      })
      if (requirements.length !== 1 || requirements[0]?.asset !== USDC_BASE) {
        throw new Error('x402 did not price the service in USDC on Base')
      }
      const resource = {
        url: `${baseUrl}/api/services`,
        description: `${service.title} (order ${orderId})`,
        mimeType: 'application/json',
      }
      return server.createPaymentRequiredResponse(requirements, resource, 'Payment required')
    },
    encodeRequired: (paymentRequired) => encodePaymentRequiredHeader(paymentRequired),
    decodeRequired: (header) => decodePaymentRequiredHeader(header),
    decodePayment,
    matches: (requirement, payload) => server.findMatchingRequirements([requirement], payload) !== undefined,
    async verify(payload, requirement) {
      try {
        const result = await server.verifyPayment(payload, requirement)
        if (result.isValid) return { valid: true, payer: result.payer ?? null }
        return { valid: false, reason: result.invalidReason ?? 'invalid', message: result.invalidMessage ?? '' }
      } catch (err) {
        if (err instanceof VerifyError) {
          return { valid: false, reason: err.invalidReason ?? 'invalid', message: err.invalidMessage ?? '' }
        }
        throw new ServiceError('facilitator_unavailable', 'The payment facilitator did not answer; try again later.', {
          retryAfterSeconds: FACILITATOR_RETRY_SECONDS,
        })
      }
    },
    async settle(payload, requirement) {
      try {
        return classify(await server.settlePayment(payload, requirement))
      } catch (err) {
        if (err instanceof SettleError) {
          const { errorReason, errorMessage, transaction, network } = err
          return classify({ success: false, errorReason, errorMessage, transaction, network })
        }
        return { kind: 'unknown', reason: 'no answer from the facilitator' }
      }
    },
    encodeResponse: (response) => encodePaymentResponseHeader(response),
  }
}

/**
 * A settlement either succeeded, failed before anything reached the chain, or is in doubt: a
 * pending settlement, or a failure that names a broadcast transaction, may still move the funds.
 */
function classify(response: SettleResponse): SettleOutcome {
  if (response.success) return { kind: 'settled', response }
  const reason = response.errorReason ?? 'settlement_failed'
  if (reason === 'settlement_pending' || response.transaction) return { kind: 'unknown', reason }
  return { kind: 'failed', reason, message: response.errorMessage ?? '' }
}

function decodePayment(header: string): { payload: PaymentPayload; authorization: Authorization } {
  let payload: PaymentPayload
  try {
    payload = decodePaymentSignatureHeader(header)
  } catch {
    throw new ServiceError('payment_invalid', 'The PAYMENT-SIGNATURE header is not a base64 x402 payment payload.')
  }
  return { payload, authorization: authorizationOf(payload) }
}
