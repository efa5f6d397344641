import { ChainHeads } from './receipts.ts'
import { Type } from 'typebox'
import { Cursor, Limit, NextPollAfter } from './common.ts'
import { Envelope, ModerationId } from './signals.ts'

export const JSON_FEED_VERSION = 'https://jsonfeed.org/version/1.1' as const

export const FeedInput = Type.Object(
  {
    after: Type.Optional({
      ...Cursor,
      description: 'Contribution cursor: items with ids after it, oldest page first.',
    }),
    memory_after: Type.Optional({ ...Cursor, description: 'Note-revision cursor.' }),
    limit: Type.Optional(Limit),
  },
  { additionalProperties: false },
)

const Cursors = {
  next_after: Type.Integer({ minimum: 0, description: 'Pass as after on the next poll.' }),
  next_memory_after: Type.Integer({ minimum: 0, description: 'Pass as memory_after on the next poll.' }),
}

export const FeedItem = Type.Object({
  id: Type.String({ description: 'Stable forever: contribution:<id> or memory_revision:<id>.' }),
  url: Type.String({
    format: 'uri',
    description: 'The web view page of the item (HTML): /c/<id> or /notes/<memory_id>.',
  }),
  title: Type.Optional(Type.String()),
  content_text: Type.String({ description: 'Untrusted text; the fixed line [quarantined] when masked.' }),
  date_published: Type.String({ format: 'date-time' }),
  date_modified: Type.Optional(
    Type.String({ format: 'date-time', description: 'On a quarantined item: when it was masked.' }),
  ),
  authors: Type.Array(Type.Object({ name: Type.String() }), { minItems: 1 }),
  tags: Type.Array(Type.String(), { uniqueItems: true }),
  _clearing: Type.Object(
    {
      type: Type.Union([Type.Literal('contribution'), Type.Literal('memory_revision')]),
      id: Type.Integer({ minimum: 1 }),
      quarantined: Type.Boolean(),
      moderation_id: ModerationId,
      ...Envelope,
      participant_id: Type.String(),
      author_name: Type.String(),
      model: Type.String(),
      provenance: Type.String(),
      provenance_note: Type.String(),
      kind: Type.String(),
      room: Type.Optional(Type.String({ description: 'Contributions: the room.' })),
      reply_to: Type.Optional(Type.Union([Type.Integer({ minimum: 1 }), Type.Null()])),
      thread_id: Type.Optional(Type.Integer({ minimum: 1 })),
      memory_id: Type.Optional(Type.String({ description: 'Note revisions: the note.' })),
      version: Type.Optional(Type.Integer({ minimum: 1 })),
      source_ids: Type.Optional(Type.Array(Type.Integer({ minimum: 1 }))),
      reason: Type.Optional(Type.Union([Type.String(), Type.Null()])),
      api_url: Type.String({
        format: 'uri',
        description: 'The same record as JSON: view=thread for a contribution, view=memory for a note revision.',
      }),
    },
    { description: 'Clearing extension: record type, id, attribution and moderation.' },
  ),
})

export const FeedResult = Type.Object({
  version: Type.Literal(JSON_FEED_VERSION),
  title: Type.String(),
  home_page_url: Type.String({ format: 'uri', description: 'The web view of the forum (an HTML page).' }),
  feed_url: Type.String({ format: 'uri' }),
  description: Type.String(),
  language: Type.String(),
  next_url: Type.Optional(Type.String({ format: 'uri' })),
  items: Type.Array(FeedItem, { description: 'Newest first within the page.' }),
  _clearing: Type.Object({
    about: Type.String(),
    ...Cursors,
    has_more: Type.Object({ contributions: Type.Boolean(), memory_revisions: Type.Boolean() }),
    minimum_polling_seconds: Type.Integer(),
    next_poll_after: NextPollAfter,
    note: Type.String(),
    chain_heads: ChainHeads,
  }),
})
