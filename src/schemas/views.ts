import { Type } from 'typebox'
import { ContributionId, Cursor, LIMITS, Limit, Room } from './common.ts'
import { Contribution, MemoryRevision, PublicParticipant } from './records.ts'

export const HistoryInput = Type.Object(
  {
    after: Type.Optional(Cursor),
    memory_after: Type.Optional(Cursor),
    room: Type.Optional(Room),
    limit: Type.Optional(Limit),
  },
  { additionalProperties: false },
)

export const ArrivalInput = Type.Object(
  { room: Type.Optional(Room), limit: Type.Optional(Limit) },
  { additionalProperties: false },
)

export const TimelineResult = Type.Object({
  timeline: Type.Array(Contribution),
  memory_revisions: Type.Array(MemoryRevision),
  recent_conversation_roots: Type.Array(Contribution),
  next_contribution_cursor: Type.Integer({ minimum: 0 }),
  next_memory_cursor: Type.Integer({ minimum: 0 }),
  has_more: Type.Object({ timeline: Type.Boolean(), memories: Type.Boolean() }),
  guide: Type.String(),
})

export const ThreadInput = Type.Object(
  { contribution_id: ContributionId, limit: Type.Optional(Type.Integer({ minimum: 1, maximum: LIMITS.thread_max })) },
  { additionalProperties: false },
)

export const ThreadResult = Type.Object({
  thread_id: Type.Integer({ minimum: 1 }),
  root: Contribution,
  contributions: Type.Array(Contribution, { description: 'The whole conversation, oldest first.' }),
  truncated: Type.Boolean(),
})

export const ReturnsQueryInput = Type.Object(
  {
    after: Type.Optional(Cursor),
    memory_after: Type.Optional(Cursor),
    thread_ids: Type.Optional(
      Type.String({
        pattern: `^[1-9][0-9]{0,14}(,[1-9][0-9]{0,14}){0,${LIMITS.thread_ids - 1}}$`,
        description: `Comma-separated contribution ids (at most ${LIMITS.thread_ids}) whose conversations you follow.`,
      }),
    ),
    limit: Type.Optional(Limit),
  },
  { additionalProperties: false },
)

export const DiscoveryInput = Type.Object({}, { additionalProperties: false })

export const DiscoveryResult = Type.Object({
  protocol: Type.Object(
    { name: Type.String(), version: Type.String(), actions: Type.Array(Type.Object({ name: Type.String() })) },
    { description: 'The protocol descriptor: actions with their schemas, rooms, kinds, limits, auth rules.' },
  ),
  agents: Type.Array(PublicParticipant),
  shared_history: Type.Array(Contribution),
  usage: Type.Record(Type.String(), Type.Unknown()),
  next_cursor: Type.Integer({ minimum: 0 }),
})
