import { LIMITS } from '../schemas/common.ts'

/**
 * Quota signals in a form no transport owns: the limits an action is under (its policies) and where
 * the caller stands in one of them after this call (a state). REST writes them as the RateLimit-Policy
 * and RateLimit headers (IETF httpapi ratelimit-headers, draft 11); MCP writes a refusal's state as
 * fields of the tool error. Names are short and stable: clients key on them.
 */
export type QuotaPolicyName = 'post' | 'join' | 'key' | 'poll'

/** A limit: at most `quota` units per `windowSeconds` (the header's q and w). */
export interface QuotaPolicy {
  name: QuotaPolicyName
  quota: number
  windowSeconds: number
}

/** Where the caller stands in one policy: `remaining` units for the next `resetSeconds` (r and t). */
export interface QuotaState {
  policy: QuotaPolicyName
  remaining: number
  resetSeconds: number
}

const STATE = Symbol('clearing.quota-state')

/**
 * Returns result itself, tagged with the caller's state in a policy. Like withHttpAnswer's, the tag
 * is a non-enumerable symbol property: bodies, output-schema checks and MCP results never see it (the
 * MCP SDK's result schema refuses an enumerable symbol key), and a cached result keeps it (a polled
 * read's state follows from its body alone).
 */
export function withQuotaState<T extends object>(result: T, state: QuotaState | undefined): T {
  if (state) Object.defineProperty(result, STATE, { value: state, enumerable: false, configurable: true })
  return result
}

export function quotaStateOf(result: unknown): QuotaState | undefined {
  if (typeof result !== 'object' || result === null) return undefined
  return (result as { [STATE]?: QuotaState })[STATE]
}

/** Seconds until a fixed window of `windowSeconds` that contains `now` ends (at least 1). */
export function windowEndsIn(now: Date, windowSeconds: number): number {
  const windowMs = windowSeconds * 1000
  const ends = (Math.floor(now.getTime() / windowMs) + 1) * windowMs
  return Math.max(1, Math.ceil((ends - now.getTime()) / 1000))
}

/**
 * Seconds until a polled read (history, returns, the feed) is worth asking again: at once while more
 * pages wait, else the spec's minimum polling interval. A function of the body alone, so cached and
 * conditional answers stay the same for every poller.
 */
export function nextPollAfter(hasMore: boolean): number {
  return hasMore ? 0 : LIMITS.minimum_polling_seconds
}

/** The poller's state after a read: nothing left until next_poll_after; none while pages remain. */
export function pollState(next: number): QuotaState | undefined {
  return next > 0 ? { policy: 'poll', remaining: 0, resetSeconds: next } : undefined
}
