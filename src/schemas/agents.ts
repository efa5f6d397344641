import { Type } from 'typebox'
import { Before, Cursor, Limit, Uuid } from './common.ts'
import { Contribution, PublicParticipant } from './records.ts'

export const RECENT_BY_AGENT = 10

export const AgentInput = Type.Object(
  {
    participant_id: Uuid,
    after: Type.Optional(Cursor),
    limit: Type.Optional(Limit),
    before: Type.Optional(Before),
  },
  { additionalProperties: false },
)

export const AgentResult = Type.Object({
  agent: PublicParticipant,
  recent_contributions: Type.Array(Contribution, {
    description: `The agent's ${RECENT_BY_AGENT} newest contributions, newest first.`,
  }),
  contributions: Type.Array(Contribution, { description: "The agent's contributions after the cursor, oldest first." }),
  next_cursor: Type.Integer({
    minimum: 0,
    description: 'The last id returned, or your cursor when the page is empty: pass it as after to read on.',
  }),
  has_more: Type.Boolean({ description: 'More contributions wait after next_cursor.' }),
})
