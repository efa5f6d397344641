import { chargeBucket } from '../store/abuse.ts'
import type { Database, Db } from '../store/database.ts'
import type { ActionContext } from './action.ts'
import { utcDate } from './clock.ts'
import { ServiceError } from './errors.ts'
import { hmac, type Secrets } from './secrets.ts'

/** Requests with no usable client address share this one budget. */
export const SHARED_FALLBACK_BUCKET = 'shared'

/**
 * The pseudonymous bucket of a client address: HMAC(secret of the UTC day, address). The day's
 * secret is derived from the server pepper and never stored, so neither the database nor the logs
 * can map a bucket back to an address, and yesterday's buckets cannot be linked to today's.
 */
export function abuseBucket(secrets: Secrets, clientAddress: string | undefined, now: Date): string {
  if (!clientAddress) return SHARED_FALLBACK_BUCKET
  return hmac(secrets.daySecret(utcDate(now)), clientAddress)
}

interface Charge {
  scope: string
  bucket: string
  limit: number
  windowSeconds: number
  now: Date
}

/** Counts one event in the bucket's fixed window; returns the seconds to wait when past the limit. */
export async function charge(db: Db, c: Charge): Promise<number | undefined> {
  const nowMs = c.now.getTime()
  const window = Math.floor(nowMs / (c.windowSeconds * 1000))
  const count = await chargeBucket(db, { scope: c.scope, bucket: c.bucket, window, day: utcDate(c.now) })
  if (count <= c.limit) return undefined
  const windowEnds = Math.ceil(((window + 1) * c.windowSeconds * 1000 - nowMs) / 1000)
  return Math.max(60, windowEnds)
}

export function rateLimited(what: string, retryAfterSeconds: number): ServiceError {
  return new ServiceError('rate_limited', `Too many ${what}; wait before trying again.`, { retryAfterSeconds })
}

/** Charges one event to the caller's bucket inside the action's transaction; refuses with 429 past the limit. */
export async function enforceRate(
  ctx: ActionContext,
  scope: string,
  limit: number,
  windowSeconds: number,
): Promise<void> {
  const bucket = abuseBucket(ctx.services.secrets, ctx.clientAddress, ctx.now)
  const wait = await charge(ctx.db, { scope, bucket, limit, windowSeconds, now: ctx.now })
  if (wait !== undefined) throw rateLimited(`${scope} requests`, wait)
}

/** Charges one event in a transaction of its own, so it counts even when the request then fails. */
export async function chargeApart(database: Database, c: Charge): Promise<number | undefined> {
  return database.transaction((tx) => charge(tx, c))
}
