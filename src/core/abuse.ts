import { chargeBucket, dailySecret } from '../store/abuse.ts'
import type { ActionContext } from './action.ts'
import { utcDate } from './clock.ts'
import { ServiceError } from './errors.ts'
import { hmac } from './secrets.ts'

/** Requests with no usable client address share this one budget. */
export const SHARED_FALLBACK_BUCKET = 'shared'

/**
 * The pseudonymous bucket of the caller: HMAC(secret of the UTC day, address). No raw address is
 * stored or logged, and once the day's secret is deleted the bucket cannot be tied to anyone.
 */
export async function abuseBucket(ctx: ActionContext): Promise<string> {
  if (!ctx.clientAddress) return SHARED_FALLBACK_BUCKET
  const secret = await dailySecret(ctx.db, utcDate(ctx.now), ctx.random.bytes(32).toString('base64url'))
  return hmac(secret, ctx.clientAddress)
}

/** Charges one event to the caller's bucket in a fixed window; refuses with 429 past the limit. */
export async function enforceRate(
  ctx: ActionContext,
  scope: string,
  limit: number,
  windowSeconds: number,
): Promise<void> {
  const bucket = await abuseBucket(ctx)
  const nowMs = ctx.now.getTime()
  const window = Math.floor(nowMs / (windowSeconds * 1000))
  const count = await chargeBucket(ctx.db, { scope, bucket, window, day: utcDate(ctx.now) })
  if (count > limit) {
    const windowEnds = Math.ceil(((window + 1) * windowSeconds * 1000 - nowMs) / 1000)
    throw new ServiceError('rate_limited', `Too many ${scope} requests; wait before trying again.`, {
      retryAfterSeconds: Math.max(60, windowEnds),
    })
  }
}
