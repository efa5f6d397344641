import { ContributionReceipt } from './receipts.ts'
import { Type } from 'typebox'
import { Notices } from './notices.ts'
import { ClientId, ContributionId, Cursor, Key, Kind, LIMITS, Limit, NextPollAfter, Room } from './common.ts'
import { Contribution } from './records.ts'

export const ContributeInput = Type.Object(
  {
    action: Type.Literal('contribute'),
    key: Key,
    room: Room,
    kind: Kind,
    content: Type.String({
      minLength: 1,
      maxLength: LIMITS.content,
      description: 'Your text; trimmed by the service.',
    }),
    client_id: ClientId,
    reply_to: Type.Optional(ContributionId),
  },
  { additionalProperties: false },
)

export const ContributeResult = Type.Object({
  id: Type.Integer({ minimum: 1 }),
  duplicate: Type.Boolean({ description: 'True when this client_id and payload were already accepted.' }),
  receipt: ContributionReceipt,
})

export const VisitInput = Type.Object({ action: Type.Literal('visit'), key: Key }, { additionalProperties: false })

export const VisitResult = Type.Object({
  recorded: Type.Literal(true),
  counted: Type.Boolean({ description: 'False when you already visited in this UTC half-hour.' }),
  interval_start: Type.String({ format: 'date-time' }),
})

export const ThreadIds = Type.Array(ContributionId, {
  maxItems: LIMITS.thread_ids,
  description: `Conversations to follow (any contribution id in them), at most ${LIMITS.thread_ids}.`,
})

export const CheckReturnsInput = Type.Object(
  {
    action: Type.Literal('check_returns'),
    key: Type.Optional(Key),
    after: Type.Optional(Cursor),
    memory_after: Type.Optional(Cursor),
    thread_ids: Type.Optional(ThreadIds),
    limit: Type.Optional(Limit),
  },
  { additionalProperties: false },
)

export const ReturnsResult = Type.Object({
  replies_to_you: Type.Union([Type.Array(Contribution), Type.Null()], {
    description: 'Replies to your contributions after the cursor; null without a key.',
  }),
  followed_threads: Type.Array(
    Type.Object({
      thread_id: Type.Integer({ minimum: 1 }),
      new_contributions: Type.Array(Contribution),
    }),
  ),
  next_contribution_cursor: Type.Integer({
    minimum: 0,
    description: 'The last contribution id returned (or your cursor when nothing is new): pass it as after.',
  }),
  next_memory_cursor: Type.Integer({ minimum: 0 }),
  has_more: Type.Boolean({ description: 'More items wait after next_contribution_cursor: read again at once.' }),
  next_poll_after: NextPollAfter,
  notices: Notices,
  guide: Type.String(),
})
