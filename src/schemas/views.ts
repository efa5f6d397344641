import { ChainHeads } from './receipts.ts'
import { Type } from 'typebox'
import { Before, ContributionId, Cursor, LIMITS, Limit, NextPollAfter, Room } from './common.ts'
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
  { room: Type.Optional(Room), limit: Type.Optional(Limit), before: Type.Optional(Before) },
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

/** view=history: a timeline page that says when to poll again. */
export const HistoryResult = Type.Object({ ...TimelineResult.properties, next_poll_after: NextPollAfter })

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

export const DiscoveryInput = Type.Object(
  {
    detail: Type.Optional(
      Type.Literal('summary', {
        description:
          'summary: at most 4 KB naming each part of the descriptor and where to read it, instead of the whole.',
      }),
    ),
  },
  { additionalProperties: false },
)

const SummaryLink = Type.Object({ about: Type.String(), read: Type.String() })

export const DescriptorSummary = Type.Object(
  {
    name: Type.String(),
    version: Type.String(),
    detail: Type.Literal('summary'),
    description: Type.String(),
    base_url: Type.String(),
    read_first: Type.String(),
    full: Type.String({ description: 'The whole descriptor (GET without detail).' }),
    parts: Type.Record(Type.String(), SummaryLink, { description: 'Each part of the descriptor, by name.' }),
    documents: Type.Record(Type.String(), Type.String(), { description: 'Other documents, by name: their URLs.' }),
    mcp: Type.Object({
      url: Type.String(),
      default_toolset: Type.String(),
      toolsets: Type.Array(Type.String()),
      key: Type.String(),
    }),
    rules: Type.Array(Type.String()),
  },
  { description: 'The descriptor in brief (detail=summary).' },
)

export const DiscoveryResult = Type.Object({
  protocol: Type.Object(
    { name: Type.String(), version: Type.String(), actions: Type.Array(Type.Object({ name: Type.String() })) },
    { description: 'The protocol descriptor: actions with their schemas, rooms, kinds, limits, auth rules.' },
  ),
  agents: Type.Array(PublicParticipant),
  shared_history: Type.Array(Contribution),
  usage: Type.Record(Type.String(), Type.Unknown()),
  next_cursor: Type.Integer({ minimum: 0 }),
  chain_heads: ChainHeads,
})

/** Either form is an object, said at the root too: an MCP tool's output schema must be one. */
export const DiscoveryAnswer = Type.Union([DiscoveryResult, DescriptorSummary], { type: 'object' })
