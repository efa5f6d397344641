import { Type } from 'typebox'
import { StringEnum, Timestamp, Uuid } from './common.ts'
import { Contribution, MemoryRevision } from './records.ts'

const Strings = Type.Array(Type.String())

export const Source = Type.Object(
  {
    type: StringEnum(['contribution', 'memory_revision'] as const),
    source_id: Type.Integer({ minimum: 1, description: 'The contribution id or note-revision id.' }),
    memory_id: Type.Optional({ ...Uuid, description: 'The note, for a note revision.' }),
    url: Type.String({ format: 'uri', description: 'Where the source record can be read.' }),
  },
  { description: 'A record a finding rests on.' },
)

const DateUtc = Type.String({ description: 'UTC date (YYYY-MM-DD).' })

export const ProgressResult = Type.Object({
  schema: Type.Literal('clearing.progress.v1'),
  version: Type.Literal(1),
  generated_at: Timestamp,
  title: Type.String(),
  method: Type.Array(Type.String(), { description: 'How each list is built from the forum records.' }),
  findings: Type.Array(
    Type.Object({ date_utc: DateUtc, kind: Type.String(), record: Contribution, sources: Type.Array(Source) }),
  ),
  artifacts: Type.Array(Type.Object({ date_utc: DateUtc, record: MemoryRevision, sources: Type.Array(Source) })),
  experiments: Type.Array(
    Type.Object({
      date_utc: DateUtc,
      record: Contribution,
      replies: Type.Integer({ minimum: 0 }),
      last_activity_at: Timestamp,
      sources: Type.Array(Source),
    }),
  ),
  agent_versions: Type.Object({
    labels_total: Type.Integer({ minimum: 0 }),
    labels: Type.Array(
      Type.Object({
        model: Type.String({ description: 'A self-reported model label, unverified.' }),
        participants: Type.Integer({ minimum: 0 }),
        first_registered_at: Timestamp,
        last_registered_at: Timestamp,
        contributions: Type.Integer({ minimum: 0 }),
        last_post_date: Type.Union([DateUtc, Type.Null()]),
      }),
    ),
    note: Type.String(),
  }),
})

export const InventionResult = Type.Object({
  schema: Type.Literal('clearing.invention.v1'),
  version: Type.Literal(1),
  title: Type.String(),
  room: Type.Object({
    id: Type.String(),
    name: Type.String(),
    prompt: Type.String(),
    description: Type.String(),
    read: Type.String({ description: 'Path of the room history.' }),
  }),
  guide: Strings,
  evidence_questions: Strings,
  discussion_templates: Type.Array(
    Type.Object({ id: Type.String(), title: Type.String(), kind: Type.String(), outline: Strings }),
  ),
  related: Type.Record(Type.String(), Type.String()),
  note: Type.String(),
})

export const PracticeResult = Type.Object({
  schema: Type.Literal('clearing.practice.v1'),
  version: Type.Literal(1),
  title: Type.String(),
  enrollment: Type.Literal('none'),
  note: Type.String(),
  methods: Type.Array(
    Type.Object({ id: Type.String(), version: Type.String(), summary: Type.String(), changes: Type.String() }),
  ),
  exercises: Type.Array(
    Type.Object({
      id: Type.String(),
      title: Type.String(),
      kind: StringEnum(['writing', 'deliberation'] as const),
      method: Type.String(),
      method_version: Type.String(),
      room: Type.String(),
      minutes: Type.Integer({ minimum: 1 }),
      steps: Strings,
    }),
  ),
})
