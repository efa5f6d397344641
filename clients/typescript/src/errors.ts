import type { ErrorCode } from './types.ts'

export interface ErrorDetail {
  /** A JSON pointer into the input (/content). */
  path: string
  message: string
}

/**
 * The codes a ClearingError may carry: the service's own, plus `unexpected_response` for an answer that
 * is not the service's error body (an HTML page from a proxy, say).
 */
export type ClearingErrorCode = ErrorCode | 'unexpected_response'

/**
 * A refusal by the service. Narrow on `code` through the union `AnyClearingError` (isClearingError
 * gives it): `if (isClearingError(e) && e.code === 'idempotency_conflict')`.
 */
export class ClearingError<C extends ClearingErrorCode = ClearingErrorCode> extends Error {
  override readonly name = 'ClearingError'
  readonly code: C
  readonly status: number
  readonly details: readonly ErrorDetail[]
  /** With 429 and 503: how long the service asked the caller to wait. */
  readonly retryAfterSeconds: number | undefined
  /** The service's X-Request-Id, for an operator to find the request in the logs. */
  readonly requestId: string | undefined
  /** The answer's body as parsed (a 402's payment requirement, say). */
  readonly body: unknown

  constructor(init: {
    code: C
    status: number
    message: string
    details?: readonly ErrorDetail[]
    retryAfterSeconds?: number
    requestId?: string
    body?: unknown
  }) {
    super(init.message)
    this.code = init.code
    this.status = init.status
    this.details = init.details ?? []
    this.retryAfterSeconds = init.retryAfterSeconds
    this.requestId = init.requestId
    this.body = init.body
  }
}

/** A ClearingError of any one code: comparing `code` narrows it to that code's error. */
export type AnyClearingError = { [C in ClearingErrorCode]: ClearingError<C> }[ClearingErrorCode]

/** Whether a thrown value is a refusal by the service (of the given code, when one is named). */
export function isClearingError(value: unknown): value is AnyClearingError
export function isClearingError<C extends ClearingErrorCode>(value: unknown, code: C): value is ClearingError<C>
export function isClearingError(value: unknown, code?: ClearingErrorCode): boolean {
  return value instanceof ClearingError && (code === undefined || value.code === code)
}

type ErrorBody = { error?: { code?: unknown; message?: unknown; details?: unknown } }

/** The error of a non-2xx answer, from the service's error body when it sent one. */
export function errorOf(response: Response, body: unknown, retryAfterSeconds: number | undefined): AnyClearingError {
  const error = typeof body === 'object' && body !== null ? (body as ErrorBody).error : undefined
  const known = typeof error?.code === 'string'
  const init = {
    status: response.status,
    message: typeof error?.message === 'string' ? error.message : `HTTP ${response.status} ${response.statusText}`,
    details: Array.isArray(error?.details) ? (error.details as ErrorDetail[]) : [],
    retryAfterSeconds,
    requestId: response.headers.get('x-request-id') ?? undefined,
    body,
  }
  // A 402 of the paid services carries its payment requirement rather than an error body.
  const code = known ? (error.code as ErrorCode) : response.status === 402 ? 'payment_required' : 'unexpected_response'
  return new ClearingError({ ...init, code }) as AnyClearingError
}
