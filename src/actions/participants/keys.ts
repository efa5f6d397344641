import { defineAction } from '../../core/action.ts'
import { iso } from '../../services/clock.ts'
import { ServiceError } from '../../services/errors.ts'
import { KEY_PREFIXES, bodyOf, checksumHolds } from '../../services/key-format.ts'
import { LEGACY_KEY_PATTERN } from '../../services/secrets.ts'
import { guessesLog10 } from '../../services/secret-strength.ts'
import { KeyOnlyInput, RevokeResult, RotateKeyInput, RotateResult } from '../../schemas/participants.ts'
import { insertKeyIfNew, setKeyState } from '../../store/participants/write.ts'

const LEGACY_FORMAT = new RegExp(LEGACY_KEY_PATTERN)
/**
 * The random part of a new key must take zxcvbn at least 10^30 guesses (~100 bits). 43 characters
 * from a CSPRNG estimate near 10^43, far above it; typed or patterned ones (sequences, repeats,
 * keyboard walks, words) far below. A checksum proves no randomness, so it is checked on the body.
 */
export const MIN_NEW_KEY_GUESSES_LOG10 = 30
const NOT_ACCEPTABLE =
  'The proposed key is not acceptable: generate it in the format join issues, clr_ + 43 base62 characters from a ' +
  'CSPRNG + the 6 base62 characters of their CRC32 (see the new_key field and docs/interface.md).'

/**
 * Every refused new_key (wrong format, guessable, or already in use anywhere) gets this one answer, so
 * it never tells whether some identity holds a key; it counts as a guess in the caller's abuse bucket.
 */
const notAcceptable = () =>
  new ServiceError('key_not_acceptable', NOT_ACCEPTABLE, {
    details: [{ path: '/new_key', message: 'not acceptable as a key' }],
    guess: true,
  })

/**
 * The random part of an acceptable new key: a participant key in the checksummed format with a matching
 * checksum, or one in the format issued before it. The older format stays accepted so that clients
 * built against the published 1.x contract can still rotate; Clearing's secret scan knows both.
 */
function randomPart(key: string): string | undefined {
  if (key.startsWith(KEY_PREFIXES.participant) && checksumHolds(key)) return bodyOf(key)
  return LEGACY_FORMAT.test(key) ? key.slice(KEY_PREFIXES.participant.length) : undefined
}

const strongEnough = (key: string) => {
  const body = randomPart(key)
  return body !== undefined && guessesLog10(body) >= MIN_NEW_KEY_GUESSES_LOG10
}

export const rotateKey = defineAction({
  name: 'rotate_key',
  summary: 'Replace your key with a new one you generated; the old key stops working at once.',
  http: { method: 'POST', path: '/api/clearing' },
  auth: 'participant',
  effect: 'write',
  allowPaused: true,
  input: RotateKeyInput,
  output: RotateResult,
  errors: {
    // One answer for every refused new_key (in use, wrong format, guessable), so it tells nothing more.
    key_not_acceptable: 400,
  },
  examples: [(refs) => ({ key: refs.caller.key, new_key: refs.freshKey() })],
  mcp: { title: 'Rotate your key', destructive: true, toolset: 'participation' },
  handler: async (ctx, input) => {
    const participant = ctx.participant
    const { secrets } = ctx.services
    if (!strongEnough(input.new_key)) throw notAcceptable()
    // A key in use (the caller's own included) is refused by the insert itself, so two rotations to
    // the same key cannot both pass a check made before.
    if (!(await insertKeyIfNew(ctx.db, secrets.digest(input.new_key), participant.id, iso(ctx.now)))) {
      throw notAcceptable()
    }
    await setKeyState(ctx.db, secrets.digest(input.key), 'rotated')
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
  errors: {},
  examples: [(refs) => ({ key: refs.caller.key })],
  mcp: { title: 'Revoke your key for good', destructive: true, toolset: 'participation' },
  handler: async (ctx, input) => {
    const participant = ctx.participant
    await setKeyState(ctx.db, ctx.services.secrets.digest(input.key), 'revoked')
    return { id: participant.id, revoked: true as const }
  },
})
