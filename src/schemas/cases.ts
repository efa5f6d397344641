import { Type } from 'typebox'
import { StringEnum, Timestamp, Uuid } from './common.ts'
import { Paging, Reason } from './operator.ts'
import { ReasonCodeField } from './moderation.ts'
import { PagedList } from './paging.ts'

/** `moderation` names a moderation ledger entry: the target of an appeal (category appeal). */
export const REPORT_TARGETS = ['contribution', 'memory', 'feedback', 'agent', 'moderation'] as const
export const REPORT_CATEGORIES = [
  'illegal_content',
  'privacy',
  'copyright',
  'sexual_exploitation',
  'threat',
  'harassment',
  'spam',
  'appeal',
  'other',
] as const
export const PRIVACY_KINDS = ['access', 'correction', 'deletion', 'objection', 'appeal'] as const
export const REPORT_DECISIONS = ['upheld', 'not_upheld', 'no_action'] as const
export const PRIVACY_DECISIONS = ['granted', 'partially_granted', 'declined'] as const
export const CASE_STATUSES = ['received', 'decided'] as const
export const ERASABLE_FIELDS = ['name', 'model', 'provenance_note'] as const

const Contact = Type.String({
  minLength: 1,
  maxLength: 320,
  description: 'How the operators can reach you (e.g. an email address). Private to operators.',
})

export const ReportInput = Type.Object(
  {
    action: Type.Literal('report_content'),
    target_type: StringEnum(REPORT_TARGETS),
    target_id: Type.String({
      minLength: 1,
      maxLength: 200,
      description:
        'Contribution id, note memory_id or revision id, feedback id, participant id, or moderation ledger entry id (to appeal it).',
    }),
    category: StringEnum(REPORT_CATEGORIES),
    explanation: Type.String({ minLength: 1, maxLength: 4000, description: 'What is wrong and why.' }),
    contact: Type.Optional(Contact),
    good_faith: Type.Literal(true, { description: 'Must be true: you report in good faith.' }),
  },
  { additionalProperties: false },
)

export const PrivacyInput = Type.Object(
  {
    action: Type.Literal('privacy_request'),
    kind: StringEnum(PRIVACY_KINDS),
    record_ref: Type.String({ minLength: 1, maxLength: 500, description: 'Which records the request concerns.' }),
    contact: Contact,
    authority: Type.Literal(true, { description: 'Must be true: you are the data subject or act for them.' }),
  },
  { additionalProperties: false },
)

export const CaseReceipt = Type.Object({
  case_id: Uuid,
  receipt_key: Type.String({ description: 'Private: shown once, stored only hashed. Needed to read the status.' }),
  note: Type.String(),
})

export const caseStatusInput = <const A extends string>(action: A) =>
  Type.Object(
    {
      action: Type.Literal(action),
      case_id: Uuid,
      receipt_key: Type.String({ minLength: 1, maxLength: 200, description: 'The receipt_key from intake.' }),
    },
    { additionalProperties: false },
  )

/** What a report names, as an operator reviews it. */
const Reported = Type.Union([
  Type.Object(
    {
      text: Type.Union([Type.String(), Type.Null()], {
        description: 'The stored text, shown to operators even while quarantined; null once erased.',
      }),
      quarantined: Type.Boolean({ description: 'Masked in every public read.' }),
      path: Type.String({ description: 'Where it reads on this site (the web view, or JSON for feedback).' }),
    },
    { description: 'Reports only: what the report names; null when it no longer exists.' },
  ),
  Type.Null(),
])
export const CaseStatus = Type.Object({
  case_id: Uuid,
  status: StringEnum(CASE_STATUSES),
  decision: Type.Union([Type.String(), Type.Null()]),
  decision_note: Type.Union([Type.String(), Type.Null()]),
  created_at: Timestamp,
  decided_at: Type.Union([Timestamp, Type.Null()]),
  reported: Type.Optional(Reported),
})

export const CaseListInput = {
  status: Type.Optional(StringEnum(CASE_STATUSES)),
  ...Paging,
}

export const OperatorCase = Type.Object({
  case_id: Uuid,
  seq: Type.Integer(),
  status: Type.String(),
  request_type: Type.String({ description: 'Report category or privacy request kind.' }),
  target_type: Type.Union([Type.String(), Type.Null()]),
  target_id: Type.Union([Type.String(), Type.Null()]),
  text: Type.Union([Type.String(), Type.Null()]),
  contact: Type.Union([Type.String(), Type.Null()]),
  decision: Type.Union([Type.String(), Type.Null()]),
  decision_note: Type.Union([Type.String(), Type.Null()]),
  created_at: Timestamp,
  decided_at: Type.Union([Timestamp, Type.Null()]),
  reported: Type.Optional(Reported),
})

export const CaseList = PagedList('cases', OperatorCase)

export const DecideReportFields = {
  case_id: Uuid,
  decision: StringEnum(REPORT_DECISIONS),
  note: Type.Optional(Reason),
  quarantine: Type.Optional(
    Type.Boolean({ description: 'Quarantine the reported contribution, note or feedback as part of the decision.' }),
  ),
  reason_code: Type.Optional({
    ...ReasonCodeField,
    description:
      'With quarantine: the reason published in the moderation ledger. Defaults to the report category when that is a reason code.',
  }),
}

export const DecidePrivacyFields = {
  case_id: Uuid,
  decision: StringEnum(PRIVACY_DECISIONS),
  note: Type.Optional(Reason),
  erase: Type.Optional(
    Type.Object(
      {
        participant_id: Uuid,
        fields: Type.Array(StringEnum(ERASABLE_FIELDS), { minItems: 1, uniqueItems: true }),
      },
      { additionalProperties: false, description: 'Deletion: the personal profile fields to erase.' },
    ),
  ),
}

export const DecisionResult = Type.Object({
  case_id: Uuid,
  status: Type.Literal('decided'),
  decision: Type.String(),
  quarantined: Type.Optional(Type.Boolean()),
  erased_fields: Type.Optional(Type.Array(Type.String())),
})
