import type { Database } from '../../db/database.ts'
import { abuseBucket } from '../../services/abuse.ts'
import { ServiceError } from '../../services/errors.ts'
import type { KeyGuard } from '../key-guard.ts'
import type { RegisteredAction } from '../registry.ts'
import type { Secrets } from '../../services/secrets.ts'

/**
 * Stage 2: secret guessing. A caller that presents a secret (a key, operator or review key, receipt
 * key or session token) is refused while its bucket is blocked, before the secret is looked at, so the
 * right one gains nothing; every refusal marked as a guess counts against the bucket, and past the
 * limit the answer becomes 429.
 */
export async function throttled<T>(
  guard: { keyGuard: KeyGuard; database: Database; secrets: Secrets },
  entry: RegisteredAction,
  input: Record<string, unknown>,
  clientAddress: string | undefined,
  now: Date,
  next: () => Promise<T>,
): Promise<T> {
  const presentsSecret = entry.credentials.some((field) => typeof input[field] === 'string')
  if (!presentsSecret) return next()
  const bucket = abuseBucket(guard.secrets, clientAddress, now)
  guard.keyGuard.check(bucket, now)
  try {
    return await next()
  } catch (err) {
    if (!(err instanceof ServiceError && err.guess)) throw err
    const { quota, refusal } = await guard.keyGuard.failed(guard.database, bucket, now)
    throw refusal ?? err.withQuota(quota)
  }
}
