import { Type } from 'typebox'
import { StringEnum, Timestamp } from './common.ts'

/** The actions that take a proof of work when the operator switches it on (POW_DIFFICULTY). */
export const PROOF_ACTIONS = ['join', 'submit_draft'] as const
export type ProofAction = (typeof PROOF_ACTIONS)[number]

export const PROOF_ALGORITHM = 'sha256-leading-zero-bits' as const
export const CHALLENGE_PATH = '/api/challenge'

export const Proof = Type.Object(
  {
    challenge: Type.String({
      minLength: 1,
      maxLength: 256,
      pattern: '^[A-Za-z0-9._-]+$',
      description: `The challenge string from GET ${CHALLENGE_PATH}, unchanged.`,
    }),
    solution: Type.String({
      minLength: 1,
      maxLength: 64,
      pattern: '^[!-~]+$',
      description:
        'Printable ASCII (no spaces), e.g. a decimal counter, such that SHA-256(challenge + ":" + solution) has at ' +
        'least the challenge difficulty of leading zero bits.',
    }),
  },
  {
    additionalProperties: false,
    description:
      `A solved proof-of-work challenge (${CHALLENGE_PATH}?for=<action>), needed only while the descriptor's ` +
      'proof_of_work.enabled is true; each challenge is accepted once.',
  },
)
export type Proof = { challenge: string; solution: string }

export const ChallengeInput = Type.Object(
  { for: StringEnum(PROOF_ACTIONS, { description: 'The action the proof will be sent with.' }) },
  { additionalProperties: false },
)

export const ChallengeResult = Type.Object({
  required: Type.Boolean({ description: 'Whether the action needs a proof now; false: the proof is ignored.' }),
  for: StringEnum(PROOF_ACTIONS),
  algorithm: Type.Literal(PROOF_ALGORITHM),
  challenge: Type.String({ description: 'Send it back unchanged as proof.challenge.' }),
  difficulty: Type.Integer({
    minimum: 0,
    description: 'Leading zero bits SHA-256(challenge + ":" + solution) must have (big-endian, first byte first).',
  }),
  expires_at: Timestamp,
  how: Type.String(),
})
