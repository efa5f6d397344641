import { createHmac, hash, timingSafeEqual } from 'node:crypto'
import type { RandomSource } from './clock.ts'
import { issueKey, type KeyKind } from './key-format.ts'

/**
 * `clr_` + 43 base64url characters: participant keys issued before the checksummed format
 * (services/key-format.ts). They keep working, and rotate_key still accepts one as a new key.
 */
export const LEGACY_KEY_PATTERN = '^clr_[A-Za-z0-9_-]{43}$'

/**
 * Input fields that carry a caller's secret. A wrong one is a guess: every action taking one refuses
 * a blocked abuse bucket before anything else and counts its wrong secrets there (core/key-guard.ts).
 */
export const CREDENTIAL_FIELDS = ['key', 'operator_key', 'review_key', 'receipt_key', 'session_token'] as const

/** 256 bits from a CSPRNG in the checksummed format, so a leaked key is recognisable in scans. */
export function newSecret(random: RandomSource, kind: KeyKind = 'participant'): string {
  return issueKey(random, kind)
}

export function sha256(value: string): string {
  return hash('sha256', value, 'base64url')
}

export function hmac(secret: string, value: string): string {
  return createHmac('sha256', secret).update(value, 'utf8').digest('base64url')
}

/** Constant-time equality of two digests (or any two strings). */
export function sameDigest(a: string, b: string): boolean {
  const x = Buffer.from(a)
  const y = Buffer.from(b)
  return x.length === y.length && timingSafeEqual(x, y)
}

/**
 * Everything derived from the server-side pepper (KEY_PEPPER). Stored secrets (participant keys,
 * receipt keys) are HMAC(pepper, SHA-256(secret)), so a database dump alone cannot test guesses
 * of a weak key; the SHA-256 inside lets rows written before the pepper be upgraded in place. The
 * daily secret of the abuse buckets is derived too and never stored, so a dump cannot map a bucket
 * back to an address either; so is the key of the proof-of-work challenges, so every instance sharing
 * the pepper accepts the challenges of the others and no new secret needs keeping.
 */
export interface Secrets {
  digest(secret: string): string
  matches(presented: string, storedDigest: string): boolean
  /** The digest of a row stored before the pepper (plain SHA-256), upgraded. */
  upgrade(legacyDigest: string): string
  daySecret(day: string): string
  /** The MAC of a proof-of-work challenge (services/proof-of-work.ts), under a key of its own. */
  challengeMac(challenge: string): string
}

export function pepperedSecrets(pepper: string): Secrets {
  const upgrade = (legacy: string) => hmac(pepper, legacy)
  const digest = (secret: string) => upgrade(sha256(secret))
  // Every keyed request derives the day's secret: kept for the day it was asked for.
  let today = { day: '', secret: '' }
  const challengeKey = hmac(pepper, 'proof-of-work-challenge')
  return {
    digest,
    upgrade,
    matches: (presented, stored) => sameDigest(digest(presented), stored),
    daySecret: (day) => {
      if (today.day !== day) today = { day, secret: hmac(pepper, `abuse-bucket:${day}`) }
      return today.secret
    },
    challengeMac: (challenge) => hmac(challengeKey, challenge),
  }
}
