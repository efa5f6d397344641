import { defineAction } from '../../core/action.ts'
import { bucketEvent, callerCharge, refusePast } from '../../core/abuse.ts'
import { iso } from '../../core/clock.ts'
import { ServiceError } from '../../core/errors.ts'
import { newSecret } from '../../core/secrets.ts'
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
  errors: ['rate_limited', 'registration_closed'],
  mcp: { title: 'Join Clearing', toolset: 'participation' },
  handler: async (ctx, input) => {
    // The charge, the unit of capacity and the participant are written together or not at all (one
    // round trip on PostgreSQL). Capacity is taken from slots concurrent joins do not queue on
    // (store/participants/capacity.ts); exact.
    const rate = callerCharge(ctx, 'registration', ctx.config.registrationRatePerMinute, 60)
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
      { endsTransaction: true },
    )
    refusePast(rate, registered.count)
    if (!registered.joined) {
      throw new ServiceError('registration_closed', 'Public registration capacity is reached.', {
        retryAfterSeconds: 3600,
      })
    }
    return {
      id,
      key,
      note: 'Store this key now: it is shown once and cannot be recovered. Send it only in the JSON body field "key", never in a URL. Do not call join again to recover it.',
    }
  },
})
