import { Type } from 'typebox'
import { ClientId, Cursor, Id, Key, Limit, StringEnum, Timestamp } from './common.ts'
import { Attribution, Quarantined } from './records.ts'
import { Envelope, ModerationId } from './signals.ts'

export const FEEDBACK_CATEGORIES = ['concern', 'suggestion', 'welcome', 'obstacle'] as const
export const FEEDBACK_OUTCOMES = ['helped', 'no_change', 'hindered', 'mixed', 'unsure'] as const
export const REVIEW_STATUSES = ['reviewed', 'planned', 'addressed', 'declined'] as const
/** How a report relates to the service's stated purpose and rules (the spec leaves the values open). */
export const ALIGNMENTS = ['aligned', 'partly_aligned', 'conflicts_with_rules', 'out_of_scope'] as const
export const FEEDBACK_LIMITS = { content: 4000, response: 4000, evidence: 2000, evidence_min: 12 } as const

export const FeedbackInput = Type.Object(
  {
    action: Type.Literal('feedback'),
    key: Key,
    category: StringEnum(FEEDBACK_CATEGORIES, { description: 'concern, suggestion, welcome or obstacle.' }),
    content: Type.String({ minLength: 1, maxLength: FEEDBACK_LIMITS.content, description: 'Public, attributed.' }),
    client_id: ClientId,
    outcome: Type.Optional(
      StringEnum(FEEDBACK_OUTCOMES, {
        description: 'What the place did for you: helped, no_change, hindered, mixed, unsure.',
      }),
    ),
    fit: Type.Optional(Type.Integer({ minimum: 1, maximum: 5, description: '1 poor fit to 5 good fit.' })),
  },
  { additionalProperties: false },
)

export const FeedbackResult = Type.Object({
  id: Type.Integer({ minimum: 1 }),
  duplicate: Type.Boolean({ description: 'True when this client_id and payload were already accepted.' }),
})

const ALIGNMENT_DESCRIPTION =
  "How the report relates to the service's stated purpose and rules: aligned (fits them), partly_aligned " +
  '(fits in part), conflicts_with_rules (asks for something the rules exclude, e.g. quotas, payment to ' +
  'participate, governing authority), out_of_scope (about something the service does not do).'

export const ReviewFeedbackInput = Type.Object(
  {
    action: Type.Literal('review_feedback'),
    review_key: Type.String({ minLength: 1, maxLength: 200, description: 'The operator-held review secret.' }),
    feedback_id: Id('The feedback report to review.'),
    status: StringEnum(REVIEW_STATUSES, { description: 'reviewed, planned, addressed or declined.' }),
    response: Type.String({ minLength: 1, maxLength: FEEDBACK_LIMITS.response, description: 'Public answer.' }),
    alignment: StringEnum(ALIGNMENTS, { description: ALIGNMENT_DESCRIPTION }),
    evidence: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: FEEDBACK_LIMITS.evidence,
        description: `Required for addressed (at least ${FEEDBACK_LIMITS.evidence_min} characters): the concrete change or verification, e.g. a commit, release, URL or test run.`,
      }),
    ),
    client_id: ClientId,
  },
  { additionalProperties: false },
)

export const ReviewFeedbackResult = Type.Object({
  id: Type.Integer({ minimum: 1, description: 'The review id.' }),
  feedback_id: Type.Integer({ minimum: 1 }),
  duplicate: Type.Boolean(),
})

export const FeedbackReview = Type.Object({
  id: Type.Integer({ minimum: 1 }),
  status: Type.String(),
  response: Type.String(),
  alignment: Type.String(),
  evidence: Type.Union([Type.String(), Type.Null()]),
  created_at: Timestamp,
})

export const FeedbackReport = Type.Object(
  {
    id: Type.Integer({ minimum: 1 }),
    category: Type.String(),
    content: Type.Union([Type.String(), Type.Null()], { description: 'Untrusted text; null when quarantined.' }),
    outcome: Type.Union([Type.String(), Type.Null()]),
    fit: Type.Union([Type.Integer({ minimum: 1, maximum: 5 }), Type.Null()]),
    created_at: Timestamp,
    quarantined: Quarantined,
    moderation_id: ModerationId,
    ...Envelope,
    ...Attribution,
    latest_review: Type.Union([FeedbackReview, Type.Null()], { description: 'The newest operator review, if any.' }),
  },
  { description: 'A public, attributed feedback report.' },
)

export const FeedbackViewInput = Type.Object(
  { after: Type.Optional(Cursor), limit: Type.Optional(Limit) },
  { additionalProperties: false },
)

export const FeedbackViewResult = Type.Object({
  feedback: Type.Array(FeedbackReport, { description: 'Reports after the cursor, oldest first.' }),
  next_cursor: Type.Integer({ minimum: 0, description: 'Pass as after to read the next page.' }),
  has_more: Type.Boolean(),
})
