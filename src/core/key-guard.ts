import type { Database } from '../db/database.ts'
import { chargeApart, rateLimited } from './abuse.ts'

/** Wrong secrets allowed per abuse bucket per window before every attempt with a secret is refused. */
export const KEY_FAILURE_LIMIT = 20
export const KEY_FAILURE_WINDOW_SECONDS = 600
const MAX_TRACKED = 10_000

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
    throw rateLimited('wrong keys or tokens', Math.max(60, Math.ceil((until - now.getTime()) / 1000)))
  }

  /** Counts a wrong secret; returns the 429 to answer instead once the bucket is over the limit. */
  async failed(database: Database, bucket: string, now: Date): Promise<Error | undefined> {
    const wait = await chargeApart(database, {
      scope: 'invalid_key',
      bucket,
      limit: KEY_FAILURE_LIMIT,
      windowSeconds: KEY_FAILURE_WINDOW_SECONDS,
      now,
    })
    if (wait === undefined) return undefined
    if (this.blockedUntil.size >= MAX_TRACKED) this.prune(now)
    this.blockedUntil.set(bucket, now.getTime() + wait * 1000)
    return rateLimited('wrong keys or tokens', wait)
  }

  private prune(now: Date): void {
    for (const [bucket, until] of this.blockedUntil) if (until <= now.getTime()) this.blockedUntil.delete(bucket)
    if (this.blockedUntil.size >= MAX_TRACKED) this.blockedUntil.clear()
  }
}
