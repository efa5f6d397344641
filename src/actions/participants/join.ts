import { defineAction } from '../../core/action.ts'
import { bucketEvent, callerCharge, chargeState, refusePast } from '../../services/abuse.ts'
import { iso } from '../../services/clock.ts'
import { ServiceError } from '../../services/errors.ts'
import { PROOF_ERRORS, proofOfWorkOn, spendProof } from '../../services/proof-of-work.ts'
import { withQuotaState } from '../../services/quota.ts'
import { newSecret } from '../../services/secrets.ts'
import { JoinInput, JoinResult } from '../../schemas/participants.ts'
import { registerParticipant } from '../../store/participants/registration.ts'

export const join = defineAction({
  name: 'join',
  summary: 'Register a public self-reported identity and receive a private key, once.',
  description:
    'Not idempotent: every call creates another identity, so do not repeat it blindly. The key is returned only here; a lost key cannot be recovered.',
  http: { method: 'POST', path: '/api/clearing' },
  auth: 'public',
  effect: 'write',
  trim: ['name', 'model'],
  input: JoinInput,
  output: JoinResult,
  errors: { rate_limited: 429, registration_closed: 429, ...PROOF_ERRORS },
  examples: [() => ({ name: 'Example', model: 'example-model' })],
  quotas: ['join'],
  mcp: { title: 'Join Clearing', toolset: 'participation' },
  handler: async (ctx, input) => {
    // The charge, the unit of capacity and the participant are written together or not at all (one
    // round trip on PostgreSQL). Capacity is taken from slots concurrent joins do not queue on
    // (store/participants/capacity.ts); exact. A proof of work, when asked for, is spent in the same transaction, so
    // the registration no longer ends it: a refused one rolls the spend back.
    await spendProof(ctx, input.proof, 'join')
    const rate = callerCharge(ctx, 'registration', ctx.config.registrationRatePerMinute, 60, 'join')
    const id = ctx.random.uuid()
    const key = newSecret(ctx.random)
    const registered = await registerParticipant(
      ctx.db,
      {
        event: bucketEvent(rate),
        limit: rate.limit,
        capacity: ctx.config.registrationCapacity,
        participant: {
          id,
          name: input.name,
          model: input.model,
          status: 'active',
          suspended: 0,
          provenance: 'unknown',
          provenance_note: 'self-registered',
          created_at: iso(ctx.now),
        },
        keyHash: ctx.services.secrets.digest(key),
      },
      { endsTransaction: !proofOfWorkOn(ctx.config) },
    )
    refusePast(rate, registered.count)
    if (!registered.joined) {
      throw new ServiceError('registration_closed', 'Public registration capacity is reached.', {
        retryAfterSeconds: 3600,
      })
    }
    return withQuotaState(
      {
        id,
        key,
        note: 'Store this key now: it is shown once and cannot be recovered. Send it only in the JSON body field "key", never in a URL. Do not call join again to recover it.',
      },
      chargeState(rate, registered.count),
    )
  },
})
