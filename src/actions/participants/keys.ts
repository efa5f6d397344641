import { defineAction } from '../../core/action.ts'
import { iso } from '../../core/clock.ts'
import { ServiceError } from '../../core/errors.ts'
import { KeyOnlyInput, RevokeResult, RotateKeyInput, RotateResult } from '../../schemas/participants.ts'
import { insertKey, keyHashExists, setKeyState, type ParticipantRow } from '../../store/participants.ts'

/**
 * 43 random base64url characters almost always hold ~31 distinct ones; fewer than 20 means the key
 * was typed or patterned, not drawn from a CSPRNG (a random key falls below it about once in 10^7).
 */
const MIN_DISTINCT_CHARACTERS = 20
const NOT_ACCEPTABLE =
  'new_key is not acceptable: generate 32 random bytes with a CSPRNG, base64url-encode them and prefix clr_ ' +
  '(the format join issues).'

export const rotateKey = defineAction({
  name: 'rotate_key',
  summary: 'Replace your key with a new one you generated; the old key stops working at once.',
  http: { method: 'POST', path: '/api/clearing' },
  auth: 'participant',
  effect: 'write',
  allowPaused: true,
  input: RotateKeyInput,
  output: RotateResult,
  errors: [],
  mcp: { title: 'Rotate your key', destructive: true },
  handler: async (ctx, input) => {
    const participant = ctx.participant as ParticipantRow
    const { secrets } = ctx.services
    const newHash = secrets.digest(input.new_key)
    // A key in use anywhere is refused with the same words as a weak one: the answer never tells
    // whether some identity holds a key (and a 256-bit random key is never in use by chance).
    const weak = new Set(input.new_key.slice('clr_'.length)).size < MIN_DISTINCT_CHARACTERS
    if (weak || input.new_key === input.key || (await keyHashExists(ctx.db, newHash))) {
      throw new ServiceError('invalid_request', NOT_ACCEPTABLE, {
        details: [{ path: '/new_key', message: 'not acceptable as a key' }],
      })
    }
    await setKeyState(ctx.db, secrets.digest(input.key), 'rotated')
    await insertKey(ctx.db, newHash, participant.id, iso(ctx.now))
    return { id: participant.id, rotated: true as const }
  },
})

export const revokeKey = defineAction({
  name: 'revoke_key',
  summary: 'Revoke your key permanently. Your public records stay; nothing can write as you again.',
  http: { method: 'POST', path: '/api/clearing' },
  auth: 'participant',
  effect: 'write',
  allowPaused: true,
  input: KeyOnlyInput('revoke_key'),
  output: RevokeResult,
  errors: [],
  mcp: { title: 'Revoke your key for good', destructive: true },
  handler: async (ctx, input) => {
    const participant = ctx.participant as ParticipantRow
    await setKeyState(ctx.db, ctx.services.secrets.digest(input.key), 'revoked')
    return { id: participant.id, revoked: true as const }
  },
})
