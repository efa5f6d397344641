import { defineAction, type ActionContext } from '../../core/action.ts'
import { enforceRate } from '../../services/abuse.ts'
import { iso } from '../../services/clock.ts'
import { ServiceError } from '../../services/errors.ts'
import { withHttpAnswer } from '../../services/http-answer.ts'
import { newSecret } from '../../services/secrets.ts'
import { ChallengeInput, ChallengeResult, SessionResult, SignInInput } from '../../schemas/wallet.ts'
import { consumeNonce, deleteExpiredSignIns, insertNonce, insertSession } from '../../store/wallet/write.ts'
import { findNonce } from '../../store/wallet/read.ts'
import { CHAIN_ID, CHALLENGE_SECONDS, SESSION_SECONDS } from '../../wallet/siwe-target.ts'
import { SESSION_COOKIE } from '../../services/wallet-sessions.ts'

const CHALLENGES_PER_MINUTE = 60
const later = (now: Date, seconds: number) => iso(new Date(now.getTime() + seconds * 1000))

async function target(ctx: ActionContext) {
  const siwe = await ctx.services.wallet.siwe()
  return { siwe, target: siwe.signInTarget(ctx.services.baseUrl, ctx.config.walletDomain) }
}

export const challenge = defineAction({
  name: 'challenge',
  summary: 'Wallet sign-in, step 1: an EIP-4361 message with a single-use nonce, valid 5 minutes.',
  description: 'Sign the message unchanged with the wallet (personal_sign) and send it to sign_in.',
  http: { method: 'POST', path: '/api/wallet' },
  auth: 'public',
  effect: 'write',
  input: ChallengeInput,
  output: ChallengeResult,
  errors: { rate_limited: 429 },
  examples: [(refs) => ({ address: refs.wallet.address })],
  mcp: { name: 'wallet_challenge', title: 'Wallet sign-in, step 1: get a message to sign', toolset: 'wallet' },
  handler: async (ctx, input) => {
    await enforceRate(ctx, 'wallet_challenge', CHALLENGES_PER_MINUTE, 60)
    const { siwe, target: where } = await target(ctx)
    // 128 bits from the injected source; stored only as a digest, so a database copy cannot sign in.
    const nonce = ctx.random.bytes(16).toString('hex')
    const expiresAt = later(ctx.now, CHALLENGE_SECONDS)
    await deleteExpiredSignIns(ctx.db, ctx.now)
    await insertNonce(ctx.db, {
      nonce_digest: ctx.services.secrets.digest(nonce),
      address: siwe.checksummed(input.address),
      issued_at: iso(ctx.now),
      expires_at: expiresAt,
      used_at: null,
    })
    return {
      message: siwe.challengeMessage(where, input.address, nonce, ctx.now),
      expires_at: expiresAt,
      chain_id: CHAIN_ID,
    }
  },
})

export const signIn = defineAction({
  name: 'sign_in',
  summary: 'Wallet sign-in, step 2: the signed message gives a session valid one hour.',
  description:
    'Checks domain, URI, chain id 8453, the single-use nonce, issued-at, expiry and the signature. cookie: true also sets the __Host-clearing_wallet cookie for the /wallet page. The signature proves control of the wallet only and authorizes no payment.',
  http: { method: 'POST', path: '/api/wallet' },
  auth: 'public',
  effect: 'write',
  input: SignInInput,
  output: SessionResult,
  errors: {
    wallet_message_invalid: 400,
    wallet_domain_mismatch: 403,
    wallet_chain_mismatch: 403,
    wallet_message_expired: 403,
    wallet_nonce_unknown: 403,
    wallet_nonce_replayed: 403,
    wallet_signature_invalid: 403,
  },
  examples: [(refs) => ({ ...refs.wallet.signed, cookie: true })],
  mcp: { name: 'wallet_sign_in', title: 'Wallet sign-in, step 2: send the signed message', toolset: 'wallet' },
  handler: async (ctx, input) => {
    const { siwe, target: where } = await target(ctx)
    const signed = await siwe.checkSignIn(where, input.message, input.signature as `0x${string}`, ctx.now)
    const digest = ctx.services.secrets.digest(signed.nonce)
    if (!(await consumeNonce(ctx.db, digest, signed.address, iso(ctx.now)))) {
      throw await nonceRefusal(ctx, digest, signed.address)
    }
    const token = newSecret(ctx.random, 'session')
    const expiresAt = later(ctx.now, SESSION_SECONDS)
    await insertSession(ctx.db, {
      token_digest: ctx.services.secrets.digest(token),
      address: signed.address,
      created_at: iso(ctx.now),
      expires_at: expiresAt,
      revoked_at: null,
    })
    const result = { session_token: token, address: signed.address, expires_at: expiresAt }
    if (!input.cookie) return result
    return withHttpAnswer(result, {
      headers: { 'cache-control': 'no-store' },
      cookie: { name: SESSION_COOKIE, value: token, maxAgeSeconds: SESSION_SECONDS },
    })
  },
})

/** Why a nonce could not be consumed: never issued (to this address), already used, or expired. */
async function nonceRefusal(ctx: ActionContext, digest: string, address: string): Promise<ServiceError> {
  const row = await findNonce(ctx.db, digest)
  if (!row || row.address !== address) {
    return new ServiceError('wallet_nonce_unknown', 'This nonce was not issued to this address: ask for a challenge.')
  }
  if (row.used_at !== null) {
    return new ServiceError(
      'wallet_nonce_replayed',
      'This message was already used to sign in: ask for a new challenge.',
    )
  }
  return new ServiceError('wallet_message_expired', 'The challenge expired (5 minutes): ask for a new one.')
}
