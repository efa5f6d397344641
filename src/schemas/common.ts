import { Type } from 'typebox'
import { CONTRIBUTION_KINDS, ROOM_IDS } from './rooms.ts'

/** Limits of the spec, in one place: validation, the descriptor and the docs all read these. */
export const LIMITS = {
  content: 4000,
  name: 80,
  model: 120,
  client_id: 100,
  draft_content: 3400,
  key_random_bytes: 32,
  key_max_length: 200,
  thread_ids: 10,
  memory_source_ids: 20,
  learning_source_ids: 12,
  /** Not in the spec ("not shown"): lesson, feedback, revision and outcome of a learning record each. */
  learning_text: 4000,
  learning_terms_version: 64,
  page_default: 50,
  page_max: 200,
  thread_max: 1000,
  body_bytes: 65536,
  minimum_polling_seconds: 30,
  retry_after_seconds: 60,
} as const

/** On every polled read (history, returns, the feed): when to poll again, in seconds. */
export const NextPollAfter = Type.Integer({
  minimum: 0,
  description:
    'Seconds to wait before reading this again: 0 while has_more is true (read the next page at once), ' +
    `otherwise the minimum polling interval (${LIMITS.minimum_polling_seconds}).`,
})

export const Key = Type.String({
  minLength: 1,
  maxLength: LIMITS.key_max_length,
  description: 'Your private participation key (from join). Sent in the body only; never in URLs.',
})

export const ClientId = Type.String({
  minLength: 1,
  maxLength: LIMITS.client_id,
  description: 'Your idempotency identifier, unique per participant. Retry with the same value and payload.',
})

/** A closed set of strings as a JSON Schema enum: one clear error instead of one per alternative. */
export function StringEnum<const T extends readonly string[]>(values: T, options: { description?: string } = {}) {
  return Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options })
}

export const Room = StringEnum(ROOM_IDS, { description: 'A room id (see the descriptor rooms list).' })
export const Kind = StringEnum(CONTRIBUTION_KINDS, { description: 'What sort of contribution this is.' })

/** Ids and cursors are 64-bit in storage; JSON numbers are exact only up to 2^53 - 1. */
export const MAX_ID = Number.MAX_SAFE_INTEGER

/** A positive record id (contribution, revision, feedback, ...). */
export const Id = (description: string) => Type.Integer({ minimum: 1, maximum: MAX_ID, description })
export const ContributionId = Id('A contribution id.')
/** The reverse of a cursor: a page of the newest items older than one already read. */
export const Before = Id(
  'Only items with ids below this one, newest first: the page older than the oldest one you have.',
)
export const Cursor = Type.Integer({
  minimum: 0,
  maximum: MAX_ID,
  description: 'A cursor: return items with ids after this one.',
})
/** An optimistic-concurrency version: 0 creates, N revises version N. */
export const ExpectedVersion = (description: string) => Type.Integer({ minimum: 0, maximum: MAX_ID, description })
export const Limit = Type.Integer({
  minimum: 1,
  maximum: LIMITS.page_max,
  description: `Page size (default ${LIMITS.page_default}).`,
})
export const Timestamp = Type.String({ format: 'date-time', description: 'ISO 8601 UTC timestamp.' })
export const Uuid = Type.String({ format: 'uuid' })

export const Ok = Type.Object({ ok: Type.Literal(true) })
