import type { Database } from '../db/database.ts'
import { chargeApart, chargeState, rateLimited, waitPast, type Charge } from '../services/abuse.ts'
import type { QuotaState } from '../services/quota.ts'

/** Wrong secrets allowed per abuse bucket per window before every attempt with a secret is refused. */
export const KEY_FAILURE_LIMIT = 20
export const KEY_FAILURE_WINDOW_SECONDS = 600
const MAX_TRACKED = 10_000
const GUESSES = 'wrong keys or tokens'

/**
 * Throttles guessing of secrets: participation keys, operator and review keys, receipt keys and wallet
 * session tokens, all in one count (a refused new key of rotate_key too). Each wrong one is counted in
 * the caller's abuse bucket in the database (in a transaction of its own, so the failed request's
 * rollback keeps it), where every instance counts together. Once a bucket passes the limit, the
 * instance that saw it refuses every attempt with a secret from that bucket, right or wrong, until the
 * window ends: a guess that happens to be right is refused like the others, so guessing gains nothing.
 */
export class KeyGuard {
  private readonly blockedUntil = new Map<string, number>()

  /** Throws 429 while the bucket is blocked. */
  check(bucket: string, now: Date): void {
    const until = this.blockedUntil.get(bucket)
    if (until === undefined) return
    if (until <= now.getTime()) {
      this.blockedUntil.delete(bucket)
      return
    }
    const left = Math.ceil((until - now.getTime()) / 1000)
    throw rateLimited(GUESSES, Math.max(60, left), { policy: 'key', remaining: 0, resetSeconds: left })
  }

  /**
   * Counts a wrong secret. Returns the caller's state in the `key` policy, and the 429 to answer
   * instead of the refusal once the bucket is over the limit.
   */
  async failed(database: Database, bucket: string, now: Date): Promise<{ quota: QuotaState; refusal?: Error }> {
    const charge: Charge = {
      scope: 'invalid_key',
      bucket,
      limit: KEY_FAILURE_LIMIT,
      windowSeconds: KEY_FAILURE_WINDOW_SECONDS,
      now,
      policy: 'key',
    }
    const count = await chargeApart(database, charge)
    const quota = chargeState(charge, count) as QuotaState
    const wait = waitPast(charge, count)
    if (wait === undefined) return { quota }
    if (this.blockedUntil.size >= MAX_TRACKED) this.prune(now)
    this.blockedUntil.set(bucket, now.getTime() + wait * 1000)
    // Blocked past the window's end when that is under a minute away: the state says until when.
    const blocked = { ...quota, resetSeconds: wait }
    return { quota: blocked, refusal: rateLimited(GUESSES, wait, blocked) }
  }

  private prune(now: Date): void {
    for (const [bucket, until] of this.blockedUntil) if (until <= now.getTime()) this.blockedUntil.delete(bucket)
    if (this.blockedUntil.size >= MAX_TRACKED) this.blockedUntil.clear()
  }
}
