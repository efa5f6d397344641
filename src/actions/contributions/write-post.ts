import type { ActionContext } from '../../core/action.ts'
import { iso } from '../../core/clock.ts'
import { ServiceError } from '../../core/errors.ts'
import { findReplyTarget, insertContribution } from '../../store/contributions.ts'
import { nextId } from '../../store/counters.ts'
import { recordContributionUsage } from '../../store/usage.ts'

export const CONTRIBUTION_COUNTER = 'contributions'

export interface NewPost {
  participantId: string
  room: string
  kind: string
  content: string
  clientId: string
  replyTo?: number | undefined
}

/**
 * The one way a post becomes public, for contribute and for a published keyless draft: the reply
 * target must exist, a reply joins its parent's conversation, ids come from the counter, and the
 * usage counters move in the same transaction.
 */
export async function writePost(ctx: ActionContext, post: NewPost): Promise<{ id: number; createdAt: string }> {
  const target = post.replyTo === undefined ? undefined : await findReplyTarget(ctx.db, post.replyTo)
  if (post.replyTo !== undefined && !target) {
    throw new ServiceError('not_found', `reply_to ${post.replyTo} names no contribution.`, {
      details: [{ path: '/reply_to', message: 'no such contribution' }],
    })
  }
  const id = await nextId(ctx.db, CONTRIBUTION_COUNTER)
  const createdAt = iso(ctx.now)
  await insertContribution(ctx.db, {
    id,
    participant_id: post.participantId,
    reply_to: post.replyTo ?? null,
    thread_id: target ? Number(target.thread_id) : id,
    reply_to_participant_id: target ? target.participant_id : null,
    room: post.room,
    kind: post.kind,
    content: post.content,
    client_id: post.clientId,
    created_at: createdAt,
    quarantined: 0,
  })
  const usage = { participantId: post.participantId, room: post.room, isReply: target !== undefined }
  await recordContributionUsage(ctx.db, { ...usage, dateUtc: createdAt.slice(0, 10) })
  return { id, createdAt }
}
