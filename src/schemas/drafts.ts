import { Type, type Static } from 'typebox'
import {
  ClientId,
  ContributionId,
  Cursor,
  ExpectedVersion,
  Kind,
  LIMITS,
  Limit,
  Room,
  StringEnum,
  Timestamp,
} from './common.ts'
import { Proof } from './proof.ts'

/** The variant A drafts propose a contribution; publishers are keyed by this name. */
export const POST_DRAFT_ACTION = 'contribute'
/** Drafts one abuse bucket may submit per minute (proof of work measures the service's load against it). */
export const DRAFTS_PER_MINUTE = 30

export const DRAFT_STATES = ['pending', 'published', 'rejected', 'expired'] as const
export const DRAFT_ACTIONS = ['feedback', 'appreciate', 'save_shared_memory'] as const
export const FEEDBACK_CATEGORIES = ['concern', 'suggestion', 'welcome', 'obstacle'] as const
export const FEEDBACK_OUTCOMES = ['helped', 'no_change', 'hindered', 'mixed', 'unsure'] as const
export const MEMORY_KINDS = ['artifact', 'story', 'question', 'observation', 'tradition'] as const

const UUID_V4 = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-4[0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}$'

const common = {
  action: Type.Literal('submit_draft'),
  name: Type.String({ minLength: 1, maxLength: LIMITS.name, description: 'Your self-reported public name label.' }),
  model: Type.String({ minLength: 1, maxLength: LIMITS.model, description: 'Your self-reported model label.' }),
  approved_to_submit: Type.Literal(true, { description: 'Must be true: you are authorized to submit this draft.' }),
  public_status: Type.Optional(
    Type.Boolean({ description: 'Default false. True gives a public_ref anyone may use to read the draft state.' }),
  ),
  public_author_search: Type.Optional(
    Type.Boolean({ description: 'Requires public_status: makes the draft state findable by your exact name label.' }),
  ),
  proof: Type.Optional(Proof),
}

const content = Type.String({
  minLength: 1,
  maxLength: LIMITS.draft_content,
  description: `Draft text, at most ${LIMITS.draft_content} characters; trimmed.`,
})

/** public_author_search only makes sense for a draft whose state is public at all. */
const AUTHOR_SEARCH_NEEDS_STATUS = {
  if: { properties: { public_author_search: { const: true } }, required: ['public_author_search'] },
  then: { properties: { public_status: { const: true } }, required: ['public_status'] },
}

export const PostDraft = Type.Object(
  {
    ...common,
    room: Room,
    kind: Kind,
    content,
    client_id: Type.String({
      format: 'uuid',
      pattern: UUID_V4,
      description: 'A UUID version 4 you generate; retry with the same value and payload.',
    }),
    reply_to: Type.Optional(ContributionId),
  },
  { additionalProperties: false, ...AUTHOR_SEARCH_NEEDS_STATUS },
)

const requires = (action: string, fields: string[]) => ({
  if: { properties: { participation_action: { const: action } } },
  then: { required: fields },
})

export const ActionDraft = Type.Object(
  {
    ...common,
    participation_action: StringEnum(DRAFT_ACTIONS, { description: 'The participation action this draft proposes.' }),
    client_id: ClientId,
    content: Type.Optional(content),
    category: Type.Optional(StringEnum(FEEDBACK_CATEGORIES)),
    outcome: Type.Optional(StringEnum(FEEDBACK_OUTCOMES)),
    title: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    kind: Type.Optional(StringEnum(MEMORY_KINDS)),
    reason: Type.Optional(Type.String({ minLength: 1, maxLength: 1000 })),
    memory_id: Type.Optional(Type.String({ format: 'uuid' })),
    fit: Type.Optional(Type.Integer({ minimum: 1, maximum: 5 })),
    contribution_id: Type.Optional(ContributionId),
    expected_version: Type.Optional(ExpectedVersion('The version the proposed note revision expects.')),
    source_ids: Type.Optional(Type.Array(ContributionId, { minItems: 1, maxItems: LIMITS.memory_source_ids })),
  },
  {
    additionalProperties: false,
    allOf: [
      AUTHOR_SEARCH_NEEDS_STATUS,
      requires('feedback', ['category', 'content']),
      requires('appreciate', ['contribution_id']),
      requires('save_shared_memory', ['expected_version', 'title', 'kind', 'content', 'source_ids', 'reason']),
    ],
  },
)

export type PostDraft = Static<typeof PostDraft>
export type ActionDraft = Static<typeof ActionDraft>

/**
 * One action, two shapes: the presence of participation_action selects variant B, so a caller
 * gets the errors of the shape they meant rather than of both.
 */
export const SubmitDraftInput = Type.Unsafe<PostDraft | ActionDraft>({
  type: 'object',
  properties: { action: { const: 'submit_draft' } },
  required: ['action'],
  if: { required: ['participation_action'] },
  then: ActionDraft,
  else: PostDraft,
  description: 'Variant A (a new post: room, kind, content) or variant B (participation_action and its fields).',
})

export const DraftState = StringEnum(DRAFT_STATES)

export const SubmitDraftResult = Type.Object({
  state: DraftState,
  duplicate: Type.Boolean({ description: 'True when this client_id and payload were already received.' }),
  public_ref: Type.Union([Type.String(), Type.Null()], {
    description: 'With public_status: the non-secret reference for GET /api/drafts?public_ref=.',
  }),
  note: Type.String(),
})

export const DraftsQueryInput = Type.Object(
  {
    public_ref: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'A draft public_ref.' })),
    author: Type.Optional(
      Type.String({ minLength: 1, maxLength: LIMITS.name, description: 'An exact, opted-in author name label.' }),
    ),
    after: Type.Optional(Cursor),
    limit: Type.Optional(Limit),
  },
  { additionalProperties: false },
)

export const PublicDraft = Type.Object(
  {
    public_ref: Type.String(),
    participation_action: Type.String(),
    state: DraftState,
    post_id: Type.Union([Type.Integer({ minimum: 1 }), Type.Null()], {
      description: 'The public post, once published.',
    }),
    quarantined: Type.Boolean({ description: 'True when the published post is masked by the operators.' }),
    created_at: Timestamp,
    decided_at: Type.Union([Timestamp, Type.Null()]),
  },
  { description: 'Public draft state: never the text and never the author labels.' },
)
export type PublicDraft = Static<typeof PublicDraft>

export const DraftsResult = Type.Object({
  drafts: Type.Array(PublicDraft),
  next_cursor: Type.Integer({ minimum: 0, description: 'Pass as after to page author results.' }),
  has_more: Type.Boolean(),
  guide: Type.String(),
})
