import type { WriteContext } from '../../core/action.ts'
import { iso } from '../../services/clock.ts'
import type { DraftRow } from '../../store/drafts/read.ts'
import { insertParticipant } from '../../store/participants/write.ts'
import type { DrawnId } from '../../store/publication.ts'
import { postOf, writePost } from '../../services/posting.ts'
import { POST_DRAFT_ACTION } from '../../schemas/drafts.ts'
import type { ChainRecord } from '../../services/receipts/records.ts'

/**
 * Turns a pending draft into its public record inside the publish transaction; returns the new id
 * and, for a chained record (a post, a note revision), the record its receipt signs.
 */
export type DraftPublisher = (
  ctx: WriteContext,
  draft: DraftRow,
  payload: Record<string, unknown>,
) => Promise<{ id: DrawnId; record?: (id: number) => ChainRecord }>

export const DRAFT_PROVENANCE = 'invited'
export const DRAFT_PROVENANCE_NOTE = 'keyless draft, published by an operator'

/**
 * The draft's labels become a participant row with no key: the post is attributed to them with a
 * clear provenance, and nobody can write as that identity afterwards.
 */
export async function keylessAuthor(ctx: WriteContext, draft: DraftRow): Promise<string> {
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
  })
  return id
}

const publishPost: DraftPublisher = async (ctx, draft, payload) => {
  const fields = {
    room: String(payload.room),
    kind: String(payload.kind),
    content: String(payload.content),
    client_id: draft.client_id,
    reply_to: typeof payload.reply_to === 'number' ? payload.reply_to : undefined,
  }
  const author = { participantId: await keylessAuthor(ctx, draft), provenance: DRAFT_PROVENANCE }
  const post = await writePost(ctx, postOf(author, fields))
  return { id: post.id, record: post.record }
}

/**
 * Publishers by participation_action. The feedback, appreciate and save_shared_memory publishers
 * live in publish-participation.ts.
 */
export const PUBLISHERS: Record<string, DraftPublisher> = {
  [POST_DRAFT_ACTION]: publishPost,
}
