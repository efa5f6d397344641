import type { QuotaState } from '../services/quota.ts'

/**
 * The one error type of the service. Domain code throws it; only transports map it to a
 * status (REST) or a tool error (MCP), through ERROR_STATUS below.
 */
export const ERROR_STATUS = {
  invalid_request: 400,
  unknown_action: 400,
  payload_too_large: 413,
  // Refused by Node before routing (http/client-errors.ts): a request too slow, or its headers too large.
  request_timeout: 408,
  headers_too_large: 431,
  invalid_key: 403,
  // rotate_key: one answer for every refused new_key (in use, wrong format, guessable), so it tells nothing more.
  key_not_acceptable: 400,
  // A stored text holds a secret (core/stages/scan-secrets.ts): details name the field and the kind only.
  contains_secret: 400,
  participant_paused: 403,
  participant_suspended: 403,
  key_revoked: 403,
  operator_only: 403,
  not_found: 400,
  route_not_found: 404,
  method_not_allowed: 405,
  idempotency_conflict: 409,
  version_conflict: 409,
  rate_limited: 429,
  registration_closed: 429,
  writes_paused: 503,
  unavailable: 503,
  payment_required: 402,
  internal_error: 500,
  state_conflict: 409,
  invalid_receipt: 403,
  // Learning records: only the author of a source contribution decides its consent; records are private.
  not_rightsholder: 403,
  not_owner: 403,
  // Wallet sign-in, tip receipts and paid services (issue 12; see src/actions/wallet and services).
  wallet_message_invalid: 400,
  wallet_domain_mismatch: 403,
  wallet_chain_mismatch: 403,
  wallet_message_expired: 403,
  wallet_nonce_unknown: 403,
  wallet_nonce_replayed: 403,
  wallet_signature_invalid: 403,
  session_invalid: 403,
  wallet_not_configured: 503,
  chain_unavailable: 503,
  tip_not_found: 400,
  tip_invalid: 400,
  tip_pending: 409,
  tip_already_recorded: 409,
  payments_inactive: 403,
  unknown_service: 400,
  terms_outdated: 409,
  agreement_required: 403,
  order_not_yours: 403,
  payment_invalid: 400,
  settlement_pending: 409,
  facilitator_unavailable: 503,
  // Proof of work on join and keyless drafts, while an operator asks for it (services/proof-of-work.ts): the
  // request is incomplete or its proof unusable, so 400 (the spec's statuses have no 428).
  proof_required: 400,
  proof_invalid: 400,
  proof_expired: 400,
  proof_reused: 400,
  // Operations (issue 14): GET /metrics without the operators' bearer token.
  invalid_token: 401,
} as const

export type ErrorCode = keyof typeof ERROR_STATUS

export interface ErrorDetail {
  path: string
  message: string
}

interface ServiceErrorOptions {
  details?: ErrorDetail[]
  retryAfterSeconds?: number
  guess?: boolean
  quota?: QuotaState
}

export class ServiceError extends Error {
  readonly code: ErrorCode
  readonly details: ErrorDetail[] | undefined
  /** Seconds a caller should wait; sent as Retry-After with 429 and 503. */
  readonly retryAfterSeconds: number | undefined
  /**
   * A wrong secret was presented (a key, an operator or review key, a receipt key, a session token)
   * or a new key was refused: the pipeline counts it in the caller's abuse bucket (core/key-guard.ts).
   */
  readonly guess: boolean
  /** The caller's state in the quota policy this answer concerns (services/quota.ts), when one does. */
  readonly quota: QuotaState | undefined

  constructor(code: ErrorCode, message: string, options: ServiceErrorOptions = {}) {
    super(message)
    this.name = 'ServiceError'
    this.code = code
    this.details = options.details
    this.retryAfterSeconds = options.retryAfterSeconds
    this.guess = options.guess === true
    this.quota = options.quota
  }

  /** The same refusal, telling the caller's state in a quota policy as well. */
  withQuota(quota: QuotaState): ServiceError {
    const { code, message, details, retryAfterSeconds, guess } = this
    return new ServiceError(code, message, { details, retryAfterSeconds, guess, quota })
  }

  get status(): number {
    return ERROR_STATUS[this.code]
  }
}

/** The wire shape of every non-2xx answer (DESIGN.md, "Error body"). */
export function errorBody(error: ServiceError): Record<string, unknown> {
  const body: Record<string, unknown> = { code: error.code, message: error.message }
  if (error.details?.length) body.details = error.details
  const out: Record<string, unknown> = { error: body }
  if (error.retryAfterSeconds !== undefined) out.retry_after_seconds = error.retryAfterSeconds
  return out
}

/** Anything that is not a ServiceError is a bug: callers see a generic 500, the log sees the cause. */
export function toServiceError(err: unknown): ServiceError {
  if (err instanceof ServiceError) return err
  return new ServiceError('internal_error', 'The service could not complete the request.')
}
