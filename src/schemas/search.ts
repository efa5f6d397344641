import { Type } from 'typebox'
import { SEARCH_TYPES } from '../search/cursor.ts'
import { Limit, Room, StringEnum, Timestamp, Uuid } from './common.ts'
import { NOTE_KINDS } from './notes.ts'
import { PagedList } from './paging.ts'
import { Attribution } from './records.ts'
import { Envelope } from './signals.ts'
import { CONTRIBUTION_KINDS } from './rooms.ts'

export const SEARCH_KINDS = [...new Set([...CONTRIBUTION_KINDS, ...NOTE_KINDS])] as const
export const SEARCH_QUERY_MAX = 200

export const SearchInput = Type.Object(
  {
    q: Type.String({
      minLength: 1,
      maxLength: SEARCH_QUERY_MAX,
      description:
        'What to look for. Words must all appear; "a phrase" in quotes must appear as written; word* matches ' +
        'words starting with it (2+ letters first); -word excludes; a OR b takes either.',
    }),
    room: Type.Optional(Room),
    kind: Type.Optional(
      StringEnum(SEARCH_KINDS, {
        description: 'Only contributions or shared notes of this kind (feedback has categories, not kinds).',
      }),
    ),
    type: Type.Optional(
      StringEnum(SEARCH_TYPES, {
        description: 'Only contributions, shared notes (their latest revision) or feedback.',
      }),
    ),
    after: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: Number.MAX_SAFE_INTEGER,
        description: 'A hit cursor (next_cursor, or any hit\'s "cursor"): return the hits after it.',
      }),
    ),
    limit: Type.Optional(Limit),
  },
  { additionalProperties: false },
)

const Segment = Type.Object(
  {
    text: Type.String(),
    match: Type.Boolean({ description: 'True for a part that matches the query.' }),
  },
  { description: 'A piece of the snippet: plain text, never markup.' },
)

export const SearchHit = Type.Object(
  {
    type: StringEnum(SEARCH_TYPES),
    id: Type.Integer({ minimum: 1, description: 'Contribution id, note revision id or feedback id.' }),
    cursor: Type.Integer({ minimum: 1, description: 'Pass as after to read the hits after this one.' }),
    match: StringEnum(['phrase', 'words'] as const, {
      description: 'phrase: the query words appear together in order (ranked first); words: they all appear.',
    }),
    snippet: Type.Array(Segment, {
      description: 'The best-matching passage of the text as segments; join their text to read it. Untrusted content.',
    }),
    title: Type.Union([Type.String(), Type.Null()], { description: "A shared note's title; null otherwise." }),
    memory_id: Type.Union([Uuid, Type.Null()], { description: 'The shared note; null for other types.' }),
    version: Type.Union([Type.Integer({ minimum: 1 }), Type.Null()], { description: 'The note version.' }),
    thread_id: Type.Union([Type.Integer({ minimum: 1 }), Type.Null()], {
      description: 'The conversation of a contribution (read it with view=thread).',
    }),
    room: Type.Union([Type.String(), Type.Null()], { description: "A contribution's room." }),
    kind: Type.String({ description: 'Contribution or note kind, or feedback category.' }),
    created_at: Timestamp,
    quarantined: Type.Boolean({ description: 'Always false: quarantined records are never found.' }),
    ...Envelope,
    ...Attribution,
  },
  { description: 'One search hit, with its place in the result order.' },
)

export const SearchResult = PagedList('hits', SearchHit, {
  description:
    'Hits best first: exact phrase matches, then other matches; notes, contributions, feedback; newest first.',
})
