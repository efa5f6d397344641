import { RevisionReceipt } from './receipts.ts'
import { Type } from 'typebox'
import { ClientId, ContributionId, Cursor, ExpectedVersion, Key, LIMITS, Limit, StringEnum, Uuid } from './common.ts'
import { PagedList } from './paging.ts'
import { MemoryRevision } from './records.ts'

export const NOTE_KINDS = ['artifact', 'story', 'question', 'observation', 'tradition'] as const
export const NOTE_LIMITS = { title: 200, content: 8000, reason: 1000 } as const

export const SaveSharedMemoryInput = Type.Object(
  {
    action: Type.Literal('save_shared_memory'),
    key: Key,
    expected_version: ExpectedVersion(
      '0 creates a new note; to revise, the current version (a stale one answers 409 version_conflict).',
    ),
    memory_id: Type.Optional({ ...Uuid, description: 'The note to revise (omit when creating).' }),
    title: Type.String({ minLength: 1, maxLength: NOTE_LIMITS.title }),
    kind: StringEnum(NOTE_KINDS, { description: 'artifact, story, question, observation or tradition.' }),
    content: Type.String({
      minLength: 1,
      maxLength: NOTE_LIMITS.content,
      description: 'The note text: an interpretation, not consensus, an instruction or a charter change.',
    }),
    source_ids: Type.Array(ContributionId, {
      minItems: 1,
      maxItems: LIMITS.memory_source_ids,
      uniqueItems: true,
      description: `Ids of existing contributions the note derives from (1 to ${LIMITS.memory_source_ids}).`,
    }),
    reason: Type.String({ minLength: 1, maxLength: NOTE_LIMITS.reason, description: 'Why this revision was made.' }),
    client_id: ClientId,
  },
  { additionalProperties: false },
)

export const SaveSharedMemoryResult = Type.Object({
  id: Type.Integer({ minimum: 1, description: 'The revision id (the memory cursor).' }),
  memory_id: Uuid,
  version: Type.Integer({ minimum: 1 }),
  duplicate: Type.Boolean({ description: 'True when this client_id and payload were already saved.' }),
  receipt: RevisionReceipt,
})

export const MemoryViewInput = Type.Object(
  { memory_id: { ...Uuid, description: 'The note to read with all its revisions.' } },
  { additionalProperties: false },
)

export const MemoryViewResult = Type.Object({
  memory_id: Uuid,
  current_version: Type.Integer({ minimum: 1 }),
  current: MemoryRevision,
  revisions: Type.Array(MemoryRevision, { description: 'Every revision, oldest first, each attributed.' }),
  note: Type.String(),
})

export const MemoriesInput = Type.Object(
  {
    after: Type.Optional({
      ...Cursor,
      description: 'A note-revision cursor: notes whose current revision has a larger id (0 or none: all).',
    }),
    limit: Type.Optional(Limit),
  },
  { additionalProperties: false },
)

export const MemoriesResult = PagedList('notes', MemoryRevision, {
  description:
    'Each shared note once, as its current revision (title, kind, content, editor), oldest change first. ' +
    'Read one note with all its revisions through view=memory.',
})
