import { usageOf } from './activity.ts'
import type { ServiceContext, ServiceWriteContext } from './context.ts'
import { iso, utcDate } from './clock.ts'
import { ServiceError } from './errors.ts'
import { payloadHash, replayOf } from './idempotency.ts'
import { findOwnByClientId } from '../store/contributions/read.ts'
import { insertContribution } from '../store/contributions/write.ts'
import type { WriteOrder } from '../db/prepared.ts'
import { contributionUsage } from '../store/usage/write.ts'
import { drawnId, type DrawnId } from '../store/publication.ts'
import { storedSignals } from '../signals/stored.ts'
import { contributionDigest } from './receipts/content-digest.ts'
import { contributionRecord, type ContributionRecord } from './receipts/records.ts'

export interface NewPost {
  participantId: string
  /** The author's provenance: usage counts posts per provenance category. */
  provenance: string
  room: string
  kind: string
  content: string
  clientId: string
  replyTo?: number | undefined
  /** The canonical hash of the write that produced the post (services/idempotency.ts). */
  payloadHash: string
}

/** A post as contribute names it: what a published draft and the pilot write too. */
export interface PostFields {
  room: string
  kind: string
  content: string
  client_id: string
  reply_to?: number | undefined
}

/**
 * The post its author writes with these fields. The payload hash covers every field given (for
 * contribute, its whole input), so a retry matches the original exactly as it was asked.
 */
export function postOf(author: Pick<NewPost, 'participantId' | 'provenance'>, fields: PostFields): NewPost {
  return {
    ...author,
    room: fields.room,
    kind: fields.kind,
    content: fields.content,
    clientId: fields.client_id,
    replyTo: fields.reply_to,
    payloadHash: payloadHash(fields),
  }
}

export interface WrittenPost {
  /** Public once the pipeline publishes it (store/publication.ts). */
  id: DrawnId
  /** True when the author's client_id already named this post with the same payload (a retry). */
  duplicate: boolean
  /** The post's signed record, given its public id (services/receipts). */
  record: (id: number) => ContributionRecord
}

/**
 * The one way a post is written, for contribute, a published keyless draft and the pilot, under the
 * one idempotency rule: a client_id its author already used answers with that post (or 409 for
 * another payload). The reply target must be public, a reply joins its parent's conversation, the id
 * comes from the one allocator (store/publication.ts: on PostgreSQL it is provisional until just
 * after commit), and the author's usage moves in the same statement as the insert. A caller whose
 * transaction writes nothing after the post says so (`endsTransaction`), and its COMMIT goes with it.
 */
export async function writePost(
  ctx: ServiceWriteContext,
  post: NewPost,
  options: WriteOrder & {
    /** May refuse a new post (the 30-second spacing), never a retry. */
    admit?: () => void
  } = {},
): Promise<WrittenPost> {
  const { admit } = options
  try {
    admit?.()
  } catch (refusal) {
    const earlier = await earlierPost(ctx, post)
    if (earlier) return replayed(post, earlier)
    throw refusal
  }
  const createdAt = iso(ctx.now)
  const contentDigest = contributionDigest(post.content)
  const facts = {
    provenance: post.provenance,
    room: post.room,
    // Counted as a reply only if the parent is found: the insert writes nothing otherwise.
    isReply: post.replyTo !== undefined,
    dateUtc: utcDate(ctx.now),
    at: createdAt,
  }
  const pending = await usageOf(ctx, post.participantId, (activity) => contributionUsage(activity, facts))
  const inserted = await insertContribution(
    ctx.db,
    {
      participant_id: post.participantId,
      reply_to: post.replyTo ?? null,
      room: post.room,
      kind: post.kind,
      content: post.content,
      client_id: post.clientId,
      created_at: createdAt,
      quarantined: 0,
      payload_hash: post.payloadHash,
      signals: storedSignals([post.content]),
      content_digest: contentDigest,
    },
    pending.usage,
    options,
  )
  if (inserted === 'no_reply_target') {
    // A retry's target existed when it was first written: contributions are never deleted.
    throw new ServiceError('not_found', `reply_to ${post.replyTo} names no contribution.`, {
      details: [{ path: '/reply_to', message: 'no such contribution' }],
    })
  }
  if (inserted !== 'client_id_taken') {
    pending.saved()
    return { id: inserted.id, duplicate: false, record: recordOf(post, createdAt, contentDigest) }
  }
  const earlier = await earlierPost(ctx, post)
  if (!earlier) throw new Error(`client_id ${post.clientId} was refused as taken, yet names no post`)
  return replayed(post, earlier)
}

/** The earlier post a retry answers with: the same payload, so the same fields, at its own time. */
function replayed(
  post: NewPost,
  earlier: { id: number; created_at: string; content_digest: string | null },
): WrittenPost {
  const digest = earlier.content_digest ?? contributionDigest(post.content)
  return { id: drawnId(Number(earlier.id)), duplicate: true, record: recordOf(post, earlier.created_at, digest) }
}

function recordOf(post: NewPost, createdAt: string, contentDigest: string) {
  return (id: number) =>
    contributionRecord({
      id,
      participant_id: post.participantId,
      room: post.room,
      kind: post.kind,
      reply_to: post.replyTo ?? null,
      created_at: createdAt,
      content_digest: contentDigest,
    })
}

/** The post an earlier write with this client_id produced, if its payload was the same (else 409). */
async function earlierPost(ctx: ServiceContext, post: NewPost) {
  return replayOf(await findOwnByClientId(ctx.db, post.participantId, post.clientId), post.payloadHash)
}
