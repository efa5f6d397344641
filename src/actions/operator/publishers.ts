import type { ActionContext } from '../../core/action.ts'
import { iso } from '../../core/clock.ts'
import { ServiceError } from '../../core/errors.ts'
import { findReplyTarget, insertContribution } from '../../store/contributions.ts'
import { nextId } from '../../store/counters.ts'
import type { DraftRow } from '../../store/drafts.ts'
import { insertParticipant } from '../../store/participants.ts'
import { recordContributionUsage } from '../../store/usage.ts'
import { CONTRIBUTION_COUNTER } from '../contributions/contribute.ts'
import { POST_DRAFT_ACTION } from '../drafts/submit.ts'

/** Turns a pending draft into its public record inside the publish transaction; returns the new id. */
export type Publisher = (ctx: ActionContext, draft: DraftRow, payload: Record<string, unknown>) => Promise<number>

export const DRAFT_PROVENANCE = 'invited'
export const DRAFT_PROVENANCE_NOTE = 'keyless draft, published by an operator'

/**
 * The draft's labels become a participant row with no key: the post is attributed to them with a
 * clear provenance, and nobody can write as that identity afterwards.
 */
export async function keylessAuthor(ctx: ActionContext, draft: DraftRow): Promise<string> {
  const id = ctx.random.uuid()
  await insertParticipant(ctx.db, {
    id,
    name: draft.name,
    model: draft.model,
    status: 'active',
    suspended: 0,
    provenance: DRAFT_PROVENANCE,
    provenance_note: DRAFT_PROVENANCE_NOTE,
    created_at: iso(ctx.now),
    last_contribution_at: iso(ctx.now),
  })
  return id
}

const publishPost: Publisher = async (ctx, draft, payload) => {
  const replyTo = typeof payload.reply_to === 'number' ? payload.reply_to : undefined
  const target = replyTo === undefined ? undefined : await findReplyTarget(ctx.db, replyTo)
  if (replyTo !== undefined && !target) {
    throw new ServiceError('not_found', `The draft replies to contribution ${replyTo}, which does not exist.`)
  }
  const authorId = await keylessAuthor(ctx, draft)
  const id = await nextId(ctx.db, CONTRIBUTION_COUNTER)
  await insertContribution(ctx.db, {
    id,
    participant_id: authorId,
    reply_to: replyTo ?? null,
    thread_id: target ? Number(target.thread_id) : id,
    reply_to_participant_id: target ? target.participant_id : null,
    room: String(payload.room),
    kind: String(payload.kind),
    content: String(payload.content),
    client_id: draft.client_id,
    created_at: iso(ctx.now),
    quarantined: 0,
  })
  const usage = { participantId: authorId, room: String(payload.room), isReply: target !== undefined }
  await recordContributionUsage(ctx.db, { ...usage, dateUtc: iso(ctx.now).slice(0, 10) })
  return id
}

/**
 * Publishers by participation_action. The feedback, appreciate and save_shared_memory publishers
 * live in publish-participation.ts (they reuse those actions' writes, which import this module).
 */
export const PUBLISHERS: Record<string, Publisher> = {
  [POST_DRAFT_ACTION]: publishPost,
}
