import { recordUsage } from '../../core/activity.ts'
import type { ActionContext } from '../../core/action.ts'
import { iso, utcDate } from '../../core/clock.ts'
import { ServiceError } from '../../core/errors.ts'
import { findReplyTarget, insertContribution } from '../../store/contributions.ts'
import { contributionUsage } from '../../store/usage.ts'

export interface NewPost {
  participantId: string
  /** The author's provenance: usage counts posts per provenance category. */
  provenance: string
  room: string
  kind: string
  content: string
  clientId: string
  replyTo?: number | undefined
  /** The canonical hash of the write that produced the post (core/idempotency.ts). */
  payloadHash: string
}

/**
 * The one way a post is written, for contribute, a published keyless draft and the pilot: the reply
 * target must be public, a reply joins its parent's conversation, the id comes from the one
 * allocator (store/public-ids.ts: on PostgreSQL it is provisional until just after commit), and the
 * author's usage moves in the same transaction.
 */
export async function writePost(ctx: ActionContext, post: NewPost): Promise<{ id: number; createdAt: string }> {
  const target = post.replyTo === undefined ? undefined : await findReplyTarget(ctx.db, post.replyTo)
  if (post.replyTo !== undefined && !target) {
    throw new ServiceError('not_found', `reply_to ${post.replyTo} names no contribution.`, {
      details: [{ path: '/reply_to', message: 'no such contribution' }],
    })
  }
  const createdAt = iso(ctx.now)
  const id = await insertContribution(ctx.db, {
    participant_id: post.participantId,
    reply_to: post.replyTo ?? null,
    thread_id: target ? Number(target.thread_id) : null,
    reply_to_participant_id: target ? target.participant_id : null,
    room: post.room,
    kind: post.kind,
    content: post.content,
    client_id: post.clientId,
    created_at: createdAt,
    quarantined: 0,
    payload_hash: post.payloadHash,
  })
  const facts = {
    provenance: post.provenance,
    room: post.room,
    isReply: target !== undefined,
    dateUtc: utcDate(ctx.now),
    at: createdAt,
  }
  await recordUsage(ctx, post.participantId, (activity) => contributionUsage(activity, facts))
  return { id, createdAt }
}
