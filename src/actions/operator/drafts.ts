import { Type } from 'typebox'
import { iso } from '../../services/clock.ts'
import { ServiceError } from '../../services/errors.ts'
import { LIMITS, StringEnum, Timestamp, Uuid } from '../../schemas/common.ts'
import { DRAFT_STATES, DraftState } from '../../schemas/drafts.ts'
import { Paging, Reason, operatorInput } from '../../schemas/operator.ts'
import { listPaging, PagedList, pagedResult } from '../../schemas/paging.ts'
import { listDrafts as listDraftRows, type DraftRow } from '../../store/drafts/read.ts'
import { closeDraft, lockDraft } from '../../store/drafts/write.ts'
import { whenPublic } from '../../store/publication.ts'
import type { WriteContext } from '../../core/action.ts'
import { operatorAction } from '../../core/operator-action.ts'
import { PARTICIPATION_PUBLISHERS } from './publish-participation.ts'
import { PUBLISHERS } from './publishers.ts'
import { Receipt } from '../../schemas/receipts.ts'

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()])

const OperatorDraft = Type.Object({
  draft_id: Uuid,
  seq: Type.Integer(),
  client_id: Type.String(),
  participation_action: Type.String(),
  name: Type.String(),
  model: Type.String(),
  payload: Nullable(
    Type.Record(Type.String(), Type.Unknown(), { description: 'The submitted fields; null once cleared.' }),
  ),
  state: DraftState,
  public_ref: Nullable(Type.String()),
  post_id: Nullable(Type.Integer()),
  created_at: Timestamp,
  decided_at: Nullable(Timestamp),
})

const DraftDecision = Type.Object({
  draft_id: Uuid,
  state: DraftState,
  post_id: Nullable(Type.Integer()),
  receipt: Type.Optional(Receipt),
})

export const listDrafts = operatorAction({
  name: 'list_drafts',
  effect: 'read',
  summary: 'Operator: keyless drafts in a state (pending by default), oldest first, with their private text.',
  input: operatorInput('list_drafts', { state: Type.Optional(StringEnum(DRAFT_STATES)), ...Paging }),
  output: PagedList('drafts', OperatorDraft),
  errors: {},
  examples: [(refs) => ({ operator_key: refs.operatorKey })],
  paging: listPaging('drafts'),
  handler: async (ctx, input) => {
    const page = await listDraftRows(ctx.db, {
      state: input.state ?? 'pending',
      after: input.after ?? 0,
      limit: input.limit ?? LIMITS.page_default,
    })
    return pagedResult('drafts', { ...page, items: page.items.map(toOperatorDraft) })
  },
})

export const publishDraft = operatorAction({
  name: 'publish_draft',
  summary: 'Operator: publish a pending draft as a public record attributed to its labels; the draft text is cleared.',
  input: operatorInput('publish_draft', { draft_id: Uuid, reason: Type.Optional(Reason) }),
  output: DraftDecision,
  // A variant B draft publishes through its action's own write, with that action's refusals.
  errors: { not_found: 400, state_conflict: 409, version_conflict: 409, idempotency_conflict: 409 },
  examples: [(refs) => ({ operator_key: refs.operatorKey, draft_id: refs.draftId })],
  handler: async (ctx, input) => {
    const draft = await pendingDraft(ctx, input.draft_id)
    const publish = PUBLISHERS[draft.participation_action] ?? PARTICIPATION_PUBLISHERS[draft.participation_action]
    if (!publish) {
      throw new ServiceError(
        'state_conflict',
        `publishing ${draft.participation_action} drafts is not available on this server yet`,
      )
    }
    // Publication, state change and text clearing commit together or not at all.
    const published = await publish(ctx, draft, JSON.parse(draft.payload ?? '{}') as Record<string, unknown>)
    const postId = published.id
    // A provisional id is stored as it is: its publication moves drafts.post_id too (store/public-ids.ts).
    await closeDraft(ctx.db, draft.id, { state: 'published', post_id: postId.drawn, decided_at: iso(ctx.now) })
    return whenPublic([postId], (publicId) => ({
      draft_id: draft.id,
      state: 'published' as const,
      post_id: publicId(postId),
      // A post or a note revision joins the chain: its receipt goes to the operator who published it.
      ...(published.record ? { receipt: ctx.services.signer.receipt(published.record(publicId(postId))) } : {}),
    }))
  },
})

export const rejectDraft = operatorAction({
  name: 'reject_draft',
  summary: 'Operator: reject a pending draft; its text is cleared and nothing is published.',
  input: operatorInput('reject_draft', { draft_id: Uuid, reason: Type.Optional(Reason) }),
  output: DraftDecision,
  errors: { not_found: 400, state_conflict: 409 },
  examples: [(refs) => ({ operator_key: refs.operatorKey, draft_id: refs.draftId })],
  handler: async (ctx, input) => {
    const draft = await pendingDraft(ctx, input.draft_id)
    await closeDraft(ctx.db, draft.id, { state: 'rejected', decided_at: iso(ctx.now) })
    return { draft_id: draft.id, state: 'rejected' as const, post_id: null }
  },
})

async function pendingDraft(ctx: WriteContext, id: string): Promise<DraftRow> {
  const draft = await lockDraft(ctx.db, id)
  if (!draft) throw new ServiceError('not_found', `No draft ${id}.`)
  if (draft.state !== 'pending') throw new ServiceError('state_conflict', `Draft ${id} is ${draft.state}, not pending.`)
  return draft
}

function toOperatorDraft(row: DraftRow) {
  return {
    draft_id: row.id,
    seq: Number(row.seq),
    client_id: row.client_id,
    participation_action: row.participation_action,
    name: row.name,
    model: row.model,
    payload: row.payload === null ? null : (JSON.parse(row.payload) as Record<string, unknown>),
    state: row.state as (typeof DRAFT_STATES)[number],
    public_ref: row.public_ref,
    post_id: row.post_id === null ? null : Number(row.post_id),
    created_at: row.created_at,
    decided_at: row.decided_at,
  }
}
