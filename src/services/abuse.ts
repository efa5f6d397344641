import { chargeBucket, type BucketEvent } from '../store/abuse.ts'
import type { Database } from '../db/database.ts'
import type { ServiceContext, ServiceWriteContext } from './context.ts'
import { utcDate } from './clock.ts'
import { ServiceError } from './errors.ts'
import { windowEndsIn, type QuotaPolicyName, type QuotaState } from './quota.ts'
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

export interface Charge {
  scope: string
  bucket: string
  limit: number
  windowSeconds: number
  now: Date
  /** The advertised quota policy this charge counts in (services/quota.ts); unadvertised limits have none. */
  policy?: QuotaPolicyName
}

const windowOf = (c: Charge) => Math.floor(c.now.getTime() / (c.windowSeconds * 1000))

/** The bucket event a charge counts: its fixed window and UTC day. */
export function bucketEvent(c: Charge): BucketEvent {
  return { scope: c.scope, bucket: c.bucket, window: windowOf(c), day: utcDate(c.now) }
}

/** The seconds to wait once the bucket's count, this event included, is past the limit. */
export function waitPast(c: Charge, count: number): number | undefined {
  if (count <= c.limit) return undefined
  return Math.max(60, windowEndsIn(c.now, c.windowSeconds))
}

/** The caller's state in the charge's policy once the bucket holds `count` events; none if unadvertised. */
export function chargeState(c: Charge, count: number): QuotaState | undefined {
  if (!c.policy) return undefined
  return {
    policy: c.policy,
    remaining: Math.max(0, c.limit - count),
    resetSeconds: windowEndsIn(c.now, c.windowSeconds),
  }
}

export function rateLimited(what: string, retryAfterSeconds: number, quota?: QuotaState): ServiceError {
  return new ServiceError('rate_limited', `Too many ${what}; wait before trying again.`, { retryAfterSeconds, quota })
}

/** A charge of one event to the caller's bucket of `scope`. */
export function callerCharge(
  ctx: ServiceContext,
  scope: string,
  limit: number,
  windowSeconds: number,
  policy?: QuotaPolicyName,
): Charge {
  return {
    scope,
    bucket: abuseBucket(ctx.services.secrets, ctx.clientAddress, ctx.now),
    limit,
    windowSeconds,
    now: ctx.now,
    policy,
  }
}

/** Charges one event to the caller's bucket inside the action's transaction; refuses with 429 past the limit. */
export async function enforceRate(
  ctx: ServiceWriteContext,
  scope: string,
  limit: number,
  windowSeconds: number,
): Promise<void> {
  const c = callerCharge(ctx, scope, limit, windowSeconds)
  refusePast(c, await chargeBucket(ctx.db, bucketEvent(c)))
}

/** Refuses with 429 once the bucket's count, this event included, is past the charge's limit. */
export function refusePast(c: Charge, count: number): void {
  const wait = waitPast(c, count)
  if (wait !== undefined) throw rateLimited(`${c.scope} requests`, wait, chargeState(c, count))
}

/**
 * Charges one event in a transaction of its own, so it counts even when the request then fails;
 * returns the bucket's count, this event included.
 */
export async function chargeApart(database: Database, c: Charge): Promise<number> {
  return database.transaction((tx) => chargeBucket(tx, bucketEvent(c)))
}
