import { Type } from 'typebox'
import {
  ClientId,
  ContributionId,
  Cursor,
  ExpectedVersion,
  Key,
  LIMITS,
  Limit,
  StringEnum,
  Timestamp,
  Uuid,
} from './common.ts'
import { Reason, operatorInput, Paging } from './operator.ts'
import { PagedList } from './paging.ts'

/** Length limits the spec leaves open ("not shown"), published with the others in the descriptor's limits. */
export const LEARNING_LIMITS = { text: LIMITS.learning_text, terms_version: LIMITS.learning_terms_version } as const

export const LEARNING_PURPOSES = ['memory', 'research_training'] as const
export const LEARNING_REVIEWS = ['pending', 'approved', 'rejected'] as const

const Text = (description: string) => Type.String({ minLength: 1, maxLength: LEARNING_LIMITS.text, description })

export const TermsVersion = Type.String({
  minLength: 1,
  maxLength: LEARNING_LIMITS.terms_version,
  pattern: '^[A-Za-z0-9][A-Za-z0-9._:-]*$',
  description:
    'The version of the learning terms you agree under (see GET /api/learning?view=policy), recorded as given: ' +
    'letters, digits, ".", "_", ":" and "-".',
})

const RecordId = { ...Uuid, description: 'The learning record (a UUID).' }
const Purpose = StringEnum(LEARNING_PURPOSES, {
  description: 'memory (public lesson after approval) or research_training (operator research export).',
})
const Review = StringEnum(LEARNING_REVIEWS, { description: 'The operator review of the current version.' })

export const SaveLearningInput = Type.Object(
  {
    action: Type.Literal('save_learning'),
    key: Key,
    record_id: Type.Optional({
      ...Uuid,
      description: 'The record to revise; when creating, omit it (the service assigns one) or choose a new UUID.',
    }),
    expected_version: ExpectedVersion(
      '0 creates a record; to revise, its current version (a stale one answers 409 version_conflict).',
    ),
    source_ids: Type.Array(ContributionId, {
      minItems: 1,
      maxItems: LIMITS.learning_source_ids,
      uniqueItems: true,
      description: `Ids of the existing contributions the record draws on (1 to ${LIMITS.learning_source_ids}).`,
    }),
    lesson: Text('What was learned: the text that can become a public lesson.'),
    feedback: Text('The feedback that led to it.'),
    revision: Text('What was revised because of it.'),
    outcome: Text('What came of the revision.'),
    memory_allowed: Type.Boolean({ description: 'May the lesson become public memory once approved?' }),
    training_allowed: Type.Boolean({ description: 'May the record be exported for research training?' }),
    authorized_rightsholder: Type.Literal(true, {
      description: 'Must be true: you hold the rights to this text or are authorized by who does.',
    }),
    terms_version: TermsVersion,
    client_id: ClientId,
  },
  { additionalProperties: false },
)

export const SaveLearningResult = Type.Object({
  record_id: Uuid,
  version: Type.Integer({ minimum: 1 }),
  duplicate: Type.Boolean({ description: 'True when this client_id and payload were already saved.' }),
})

export const LearningConsentInput = Type.Object(
  {
    action: Type.Literal('learning_consent'),
    key: Key,
    contribution_id: ContributionId,
    purpose: Purpose,
    granted: Type.Boolean({ description: 'true grants, false revokes; the latest decision is in force.' }),
    authorized_rightsholder: Type.Optional(
      Type.Boolean({ description: 'You hold the rights to the contribution (a grant with false is refused).' }),
    ),
    terms_version: Type.Optional(TermsVersion),
  },
  { additionalProperties: false },
)

export const Consent = Type.Object({
  contribution_id: Type.Integer({ minimum: 1 }),
  purpose: Purpose,
  granted: Type.Boolean(),
  terms_version: Type.Union([Type.String(), Type.Null()]),
  authorized_rightsholder: Type.Union([Type.Boolean(), Type.Null()]),
  decided_at: Timestamp,
  seq: Type.Integer({ minimum: 1, description: 'Drawn anew at every decision: the consent_after cursor.' }),
})

export const WithdrawLearningInput = Type.Object(
  { action: Type.Literal('withdraw_learning'), key: Key, record_id: RecordId },
  { additionalProperties: false },
)

export const WithdrawLearningResult = Type.Object({
  record_id: Uuid,
  withdrawn: Type.Literal(true),
  erased_revisions: Type.Integer({ minimum: 0, description: 'Revisions whose text this call erased (0 on a repeat).' }),
})

export const LearningRevision = Type.Object({
  version: Type.Integer({ minimum: 1 }),
  lesson: Type.String(),
  feedback: Type.String(),
  revision: Type.String(),
  outcome: Type.String(),
  source_ids: Type.Array(Type.Integer({ minimum: 1 })),
  memory_allowed: Type.Boolean(),
  training_allowed: Type.Boolean(),
  terms_version: Type.String(),
  created_at: Timestamp,
})

const ConsentState = StringEnum(['granted', 'revoked', 'not_given'] as const)

export const SourceConsent = Type.Object({
  contribution_id: Type.Integer({ minimum: 1 }),
  memory: ConsentState,
  research_training: ConsentState,
})

/** A record as its author (and the operators) read it: never in a public read. */
export const LearningRecord = Type.Object({
  record_id: Uuid,
  seq: Type.Integer({ minimum: 1, description: 'The record number: the after cursor of my_learning.' }),
  participant_id: Uuid,
  version: Type.Integer({ minimum: 1 }),
  review: Review,
  lesson_id: Type.Union([Type.Integer({ minimum: 1 }), Type.Null()], {
    description: 'The public lesson id while approved, else null.',
  }),
  approved_at: Type.Union([Timestamp, Type.Null()]),
  public: Type.Boolean({ description: 'The lesson is in the public lessons now (approval and consents in force).' }),
  exportable: Type.Boolean({ description: 'The record is in research exports now (training consents in force).' }),
  quarantined: Type.Boolean({ description: 'An operator masked the lesson in public reads.' }),
  created_at: Timestamp,
  updated_at: Timestamp,
  current: LearningRevision,
  revisions: Type.Array(LearningRevision, { description: 'Every version, oldest first.' }),
  sources: Type.Array(SourceConsent, { description: 'The consent in force for each source of the current version.' }),
})

export const MyLearningInput = Type.Object(
  {
    action: Type.Literal('my_learning'),
    key: Key,
    after: Type.Optional({ ...Cursor, description: 'Records after this record number (seq).' }),
    consent_after: Type.Optional({ ...Cursor, description: 'Consent decisions after this seq.' }),
    limit: Type.Optional(Limit),
  },
  { additionalProperties: false },
)

export const MyLearningResult = Type.Object({
  records: Type.Array(LearningRecord, { description: 'Your records (withdrawn ones excluded), oldest first.' }),
  next_cursor: Type.Integer({ minimum: 0 }),
  has_more: Type.Boolean(),
  consents: Type.Array(Consent, { description: 'The consent in force for your contributions, by decision order.' }),
  next_consent_cursor: Type.Integer({ minimum: 0 }),
  consents_has_more: Type.Boolean(),
})

export const LearningPolicyResult = Type.Object({
  version: Type.String({ description: 'Date-stamped version of the learning terms (YYYY-MM-DD).' }),
  title: Type.String(),
  purposes: Type.Array(Type.Object({ purpose: Purpose, meaning: Type.String() })),
  terms: Type.Array(Type.String()),
  withdrawal: Type.String(),
  limits: Type.Record(Type.String(), Type.Integer()),
})

export const ReviewFields = { record_id: RecordId, reason: Type.Optional(Reason) }

export const ApproveLearningInput = operatorInput('approve_learning', {
  ...ReviewFields,
  version: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: 'The version you reviewed.' }),
})
export const RejectLearningInput = operatorInput('reject_learning', ReviewFields)

export const ReviewResult = Type.Object({
  record_id: Uuid,
  version: Type.Integer({ minimum: 1 }),
  review: Review,
  lesson_id: Type.Union([Type.Integer({ minimum: 1 }), Type.Null()]),
  public: Type.Boolean({ description: 'The lesson is in the public lessons now (consents in force).' }),
})

export const ListLearningInput = operatorInput('list_learning', {
  review: Type.Optional(Review),
  ...Paging,
})
export const ListLearningResult = PagedList('records', LearningRecord)

export const ExportResearchInput = operatorInput('export_research', {
  after: Type.Optional({ ...Cursor, description: 'Records after this record number (seq).' }),
  limit: Type.Optional(Limit),
})

const VersionCount = Type.Object({ terms_version: Type.Union([Type.String(), Type.Null()]), count: Type.Integer() })

export const ExportManifest = Type.Object({
  format: Type.Literal('clearing.learning-export.v1'),
  purpose: Type.Literal('research_training'),
  generated_at: Timestamp,
  policy_version: Type.String({ description: 'The learning terms version in force at export.' }),
  after: Type.Integer({ minimum: 0 }),
  next_cursor: Type.Integer({ minimum: 0 }),
  has_more: Type.Boolean(),
  counts: Type.Object({ records: Type.Integer(), source_contributions: Type.Integer() }),
  terms_versions: Type.Array(VersionCount, { description: 'Records per terms_version of their exported version.' }),
  consent_terms_versions: Type.Array(VersionCount, {
    description: 'Source consents per terms_version given with the research_training grant (null: none given).',
  }),
  note: Type.String(),
})

export const ExportResearchResult = Type.Object({
  manifest: ExportManifest,
  jsonl: Type.String({ description: 'JSON Lines: one exported record per line, in record_ids order.' }),
  record_ids: Type.Array(Uuid, { description: 'The exported records, one per JSONL line.' }),
  next_cursor: Type.Integer({ minimum: 0 }),
  has_more: Type.Boolean(),
})
