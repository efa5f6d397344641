/** How the client retries a 429 or 503 of an action that is safe to repeat. */
export interface RetryOptions {
  /** Attempts in all, the first included (default 3; 1 never retries). */
  attempts?: number
  /** A longer wait than this is not waited for: the error is thrown (default 300 seconds). */
  maxWaitSeconds?: number
  /** Waits between attempts; tests give their own. */
  sleep?: (milliseconds: number) => Promise<void>
}

export const RETRIED_STATUSES: ReadonlySet<number> = new Set([429, 503])

/** The service asks for at least this after a 429 when it names no wait. */
const DEFAULT_WAIT_SECONDS = 60

const sleepFor = (milliseconds: number) => new Promise<void>((resolve) => setTimeout(resolve, milliseconds))

/**
 * Seconds to wait from the Retry-After header (delay-seconds or an HTTP-date, RFC 9110 10.2.3), else
 * the body's retry_after_seconds; undefined when the answer names no wait.
 */
export function retryAfterSeconds(response: Response, body: unknown, now = Date.now()): number | undefined {
  const header = response.headers.get('retry-after')?.trim()
  if (header && /^\d+$/.test(header)) return Number(header)
  if (header) {
    const at = Date.parse(header)
    if (!Number.isNaN(at)) return Math.max(0, Math.ceil((at - now) / 1000))
  }
  const field =
    typeof body === 'object' && body !== null
      ? (body as { retry_after_seconds?: unknown }).retry_after_seconds
      : undefined
  return typeof field === 'number' && field >= 0 ? field : undefined
}

export interface RetryPolicy {
  /** The wait before the next attempt, or undefined when the answer is final. */
  waitBefore(attempt: number, status: number, idempotent: boolean, retryAfter: number | undefined): number | undefined
  sleep(milliseconds: number): Promise<void>
}

export function retryPolicy(options: RetryOptions = {}): RetryPolicy {
  const attempts = options.attempts ?? 3
  const maxWait = options.maxWaitSeconds ?? 300
  return {
    waitBefore(attempt, status, idempotent, retryAfter) {
      if (!idempotent || !RETRIED_STATUSES.has(status) || attempt >= attempts) return undefined
      const wait = retryAfter ?? DEFAULT_WAIT_SECONDS
      return wait <= maxWait ? wait : undefined
    },
    sleep: options.sleep ?? sleepFor,
  }
}
