import { createHash } from 'node:crypto'
import type { Config } from '../config.ts'
import type { Proof, ProofAction } from '../schemas/proof.ts'
import { CHALLENGE_PATH } from '../schemas/proof.ts'
import { chargeBucket } from '../store/abuse.ts'
import type { ServiceContext, ServiceWriteContext } from './context.ts'
import { iso, utcDate, type RandomSource } from './clock.ts'
import { ServiceError } from './errors.ts'
import { sameDigest, type Secrets } from './secrets.ts'

/**
 * A sybil cost that tracks no one: while POW_DIFFICULTY is above 0, join and keyless drafts need a
 * solved challenge. A challenge is stateless, `v1.<action>.<difficulty>.<expiry>.<nonce>.<mac>`, its MAC
 * under a key derived from the pepper, so any instance checks what any other issued and nothing is
 * stored until a proof is spent. A spent challenge is an abuse-bucket row (scope `proof`, the nonce as
 * bucket) charged in the transaction of the write it paid for: refused writes spend nothing, and every
 * instance sees the spend; housekeeping deletes the row with the other buckets, days after expiry.
 */
const VERSION = 'v1'
const SPENT_SCOPE = 'proof'

/**
 * The refusals of spendProof, declared by the actions that spend a proof: the request is incomplete or
 * its proof unusable, so 400 (the spec's statuses have no 428).
 */
export const PROOF_ERRORS = { proof_required: 400, proof_invalid: 400, proof_expired: 400, proof_reused: 400 } as const

export const proofOfWorkOn = (config: Config): boolean => config.powDifficulty > 0

export interface Challenge {
  challenge: string
  difficulty: number
  expires_at: string
}

export function issueChallenge(
  secrets: Secrets,
  random: RandomSource,
  action: ProofAction,
  difficulty: number,
  now: Date,
  lifetimeSeconds: number,
): Challenge {
  const expires = Math.floor(now.getTime() / 1000) + lifetimeSeconds
  const body = [VERSION, action, difficulty, expires, random.bytes(16).toString('base64url')].join('.')
  return { challenge: `${body}.${secrets.challengeMac(body)}`, difficulty, expires_at: iso(new Date(expires * 1000)) }
}

/**
 * Base bits, plus one when the last minute's count reaches half the per-minute limit and one more for
 * every further tenth of it, up to the maximum; the count falls out of the minute as load falls.
 */
export function difficultyFor(config: Config, recent: number, perMinute: number): number {
  const half = perMinute / 2
  const extra = recent < half ? 0 : Math.floor((recent - half) / (perMinute / 10)) + 1
  return Math.min(config.powMaxDifficulty, config.powDifficulty + extra)
}

/** A count past which the difficulty is at its maximum: reading the load need count no further. */
export function loadCeiling(config: Config, perMinute: number): number {
  return Math.ceil(perMinute / 2 + ((config.powMaxDifficulty - config.powDifficulty + 1) * perMinute) / 10)
}

export function leadingZeroBits(digest: Uint8Array): number {
  let bits = 0
  for (const byte of digest) {
    if (byte !== 0) return bits + Math.clz32(byte) - 24
    bits += 8
  }
  return bits
}

export function solves(challenge: string, solution: string, difficulty: number): boolean {
  return leadingZeroBits(createHash('sha256').update(`${challenge}:${solution}`, 'utf8').digest()) >= difficulty
}

/**
 * Refuses the write unless it carries an unspent, unexpired, solved challenge of this server for this
 * action, then spends it in the write's transaction. Nothing happens while proof of work is off.
 */
export async function spendProof(
  ctx: ServiceWriteContext,
  proof: Proof | undefined,
  action: ProofAction,
): Promise<void> {
  if (!proofOfWorkOn(ctx.config)) return
  const { nonce, expires } = checkProof(ctx, proof, action)
  const day = utcDate(new Date(expires * 1000))
  const uses = await chargeBucket(ctx.db, { scope: SPENT_SCOPE, bucket: nonce, window: 0, day })
  if (uses > 1) throw refused('proof_reused', 'This challenge was already used', action)
}

function checkProof(ctx: ServiceContext, proof: Proof | undefined, action: ProofAction) {
  if (proof === undefined) throw refused('proof_required', `This server asks a proof of work for ${action}`, action)
  const parts = proof.challenge.split('.')
  const [version, issuedFor, bits, expiresAt, nonce, mac] = parts
  const signed = parts.slice(0, 5).join('.')
  const wellFormed =
    parts.length === 6 && version === VERSION && /^\d{1,2}$/.test(bits ?? '') && /^\d{1,12}$/.test(expiresAt ?? '')
  if (!wellFormed || !nonce || !mac || !sameDigest(ctx.services.secrets.challengeMac(signed), mac)) {
    throw refused('proof_invalid', 'This challenge was not issued by this server or was altered', action)
  }
  if (issuedFor !== action) throw refused('proof_invalid', `This challenge was issued for ${issuedFor}`, action)
  const expires = Number(expiresAt)
  if (ctx.now.getTime() >= expires * 1000) throw refused('proof_expired', 'This challenge has expired', action)
  const difficulty = Number(bits)
  if (difficulty < ctx.config.powDifficulty) {
    throw refused('proof_invalid', 'This challenge is below the difficulty now asked', action)
  }
  if (!solves(proof.challenge, proof.solution, difficulty)) {
    throw refused('proof_invalid', `SHA-256(challenge:solution) has fewer than ${difficulty} leading zero bits`, action)
  }
  return { nonce, expires }
}

function refused(code: keyof typeof PROOF_ERRORS, why: string, action: ProofAction): ServiceError {
  return new ServiceError(
    code,
    `${why}: get a challenge (GET ${CHALLENGE_PATH}?for=${action} or the MCP tool proof_challenge), solve it and ` +
      'send proof: {challenge, solution}.',
    { details: [{ path: '/proof', message: code }] },
  )
}
