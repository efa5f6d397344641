import { createHash, createHmac, timingSafeEqual } from 'node:crypto'
import type { RandomSource } from './clock.ts'

/** 256 bits from a CSPRNG, rendered with a prefix so a leaked key is recognisable in scans. */
export function newSecret(random: RandomSource, prefix = 'clr_'): string {
  return prefix + random.bytes(32).toString('base64url')
}

/** Secrets are stored only as SHA-256 digests; 256-bit random input makes a pepper unnecessary. */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('base64url')
}

/** Constant-time comparison of a presented secret against a stored digest. */
export function secretMatches(presented: string, storedHash: string): boolean {
  const a = Buffer.from(hashSecret(presented))
  const b = Buffer.from(storedHash)
  return a.length === b.length && timingSafeEqual(a, b)
}

export function hmac(secret: string, value: string): string {
  return createHmac('sha256', secret).update(value).digest('base64url')
}
