import { defineAction } from '../../core/action.ts'
import { iso } from '../../core/clock.ts'
import { ServiceError } from '../../core/errors.ts'
import { hashSecret } from '../../core/secrets.ts'
import { KeyOnlyInput, RevokeResult, RotateKeyInput, RotateResult } from '../../schemas/participants.ts'
import { insertKey, keyHashExists, setKeyState, type ParticipantRow } from '../../store/participants.ts'

const MIN_DISTINCT_CHARACTERS = 10

export const rotateKey = defineAction({
  name: 'rotate_key',
  summary: 'Replace your key with a new one you generated; the old key stops working at once.',
  http: { method: 'POST', path: '/api/clearing' },
  auth: 'participant',
  effect: 'write',
  allowPaused: true,
  input: RotateKeyInput,
  output: RotateResult,
  errors: ['invalid_request', 'invalid_key', 'key_revoked', 'participant_suspended'],
  handler: async (ctx, input) => {
    const participant = ctx.participant as ParticipantRow
    // Length alone lets "aaaa…" through; a spread of characters is the cheap sign of real randomness.
    if (new Set(input.new_key).size < MIN_DISTINCT_CHARACTERS || input.new_key === input.key) {
      throw new ServiceError('invalid_request', 'new_key is too weak: generate at least 32 random characters.', {
        details: [{ path: '/new_key', message: 'too weak' }],
      })
    }
    const newHash = hashSecret(input.new_key)
    if (await keyHashExists(ctx.db, newHash)) {
      throw new ServiceError('invalid_request', 'new_key cannot be used; generate a fresh one.', {
        details: [{ path: '/new_key', message: 'not usable' }],
      })
    }
    await setKeyState(ctx.db, hashSecret(input.key), 'rotated')
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
  errors: ['invalid_key', 'key_revoked', 'participant_suspended'],
  handler: async (ctx, input) => {
    const participant = ctx.participant as ParticipantRow
    await setKeyState(ctx.db, hashSecret(input.key), 'revoked')
    return { id: participant.id, revoked: true as const }
  },
})
