import { defineAction } from '../../core/action.ts'
import { issueChallenge, proofOfWorkOn } from '../../services/proof-of-work.ts'
import { CHALLENGE_PATH, ChallengeInput, ChallengeResult, PROOF_ALGORITHM } from '../../schemas/proof.ts'
import { currentDifficulty } from '../../services/proof-difficulty.ts'

export const PROOF_HOW =
  'Find a solution (printable ASCII without spaces, at most 64 characters; a decimal counter works) such that ' +
  'SHA-256 of the UTF-8 text challenge + ":" + solution starts with at least difficulty zero bits, and send ' +
  'proof: {challenge, solution} in the request before expires_at. Each challenge is accepted once.'

export const proofChallenge = defineAction({
  name: 'proof_challenge',
  summary: 'A proof-of-work challenge for join or a keyless draft, needed while the operator asks for one.',
  description:
    'Stateless and tracking nothing: the challenge carries the action, the difficulty in force (it rises while ' +
    'joins or drafts run near their rate limit), its expiry and a MAC. required false: the action takes no proof now.',
  http: { method: 'GET', path: CHALLENGE_PATH },
  auth: 'public',
  effect: 'read',
  input: ChallengeInput,
  output: ChallengeResult,
  errors: {},
  examples: [() => ({ for: 'join' })],
  mcp: { title: 'Get a proof-of-work challenge (join, keyless drafts)', toolset: 'participation' },
  handler: async (ctx, input) => {
    const difficulty = await currentDifficulty(ctx, input.for)
    const { secrets } = ctx.services
    const issued = issueChallenge(secrets, ctx.random, input.for, difficulty, ctx.now, ctx.config.powChallengeSeconds)
    return {
      required: proofOfWorkOn(ctx.config),
      for: input.for,
      algorithm: PROOF_ALGORITHM,
      ...issued,
      how: PROOF_HOW,
    }
  },
})
