import type { QuotaState } from './quota.ts'

/**
 * The codes the pipeline, its stages and the transports raise themselves, with their status. Every
 * other code is declared by the actions that answer with it (ActionDef.errors); the registry merges
 * both into the one table (core/error-table.ts) that transports map a ServiceError's status through.
 */
export const CORE_ERROR_STATUS = {
  invalid_request: 400,
  unknown_action: 400,
  payload_too_large: 413,
  // Refused by Node before routing (http/client-errors.ts): a request too slow, or its headers too large.
  request_timeout: 408,
  headers_too_large: 431,
  invalid_key: 403,
  // A stored text holds a secret (core/stages/scan-secrets.ts): details name the field and the kind only.
  contains_secret: 400,
  participant_paused: 403,
  participant_suspended: 403,
  key_revoked: 403,
  operator_only: 403,
  route_not_found: 404,
  method_not_allowed: 405,
  idempotency_conflict: 409,
  rate_limited: 429,
  writes_paused: 503,
  unavailable: 503,
  // The paid services' 402 is an answer (services/http-answer.ts), not a thrown error; clients name it by this code.
  payment_required: 402,
  internal_error: 500,
  // Operations (issue 14): GET /metrics without the operators' bearer token.
  invalid_token: 401,
} as const

export type CoreErrorCode = keyof typeof CORE_ERROR_STATUS

/**
 * A machine-readable error code. Typed as lower-case text rather than a closed union: the codes are
 * declared where they are raised (the core table, each action), and a closed union would be one more
 * hand-kept list. The registry's table knows every code; contract checking (tests) refuses an
 * undeclared one, and a transport answers a code no table knows as 500 internal_error.
 */
export type ErrorCode = Lowercase<string>

/** An action's own error codes with the HTTP status each answers with (ActionDef.errors). */
export type DeclaredErrors = Readonly<Record<ErrorCode, number>>

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

/**
 * The one error type of the service. Domain code throws it; only transports map it to a status (REST)
 * or a tool error (MCP), through the registry's table of error statuses.
 */
export class ServiceError<C extends ErrorCode = ErrorCode> extends Error {
  readonly code: C
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

  constructor(code: C, message: string, options: ServiceErrorOptions = {}) {
    super(message)
    this.name = 'ServiceError'
    this.code = code
    this.details = options.details
    this.retryAfterSeconds = options.retryAfterSeconds
    this.guess = options.guess === true
    this.quota = options.quota
  }

  /** The same refusal, telling the caller's state in a quota policy as well. */
  withQuota(quota: QuotaState): ServiceError<C> {
    const { code, message, details, retryAfterSeconds, guess } = this
    return new ServiceError(code, message, { details, retryAfterSeconds, guess, quota })
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
  if (err instanceof ServiceError) return err as ServiceError
  return new ServiceError('internal_error', 'The service could not complete the request.')
}
