import type { Static } from 'typebox'
import type { ServiceWriteContext } from './context.ts'
import { iso } from './clock.ts'
import { payloadHash, replayOf } from './idempotency.ts'
import { recordUsage } from './activity.ts'
import type { FeedbackInput } from '../schemas/feedback.ts'
import { nextId } from '../store/counters.ts'
import { findOwnFeedbackByClientId } from '../store/feedback/read.ts'
import { insertFeedback } from '../store/feedback/write.ts'
import { feedbackUsage } from '../store/usage/write.ts'
import { storedSignals } from '../signals/stored.ts'

/** Stores a participant's report: feedback, and a published keyless draft. */
export async function createFeedback(
  ctx: ServiceWriteContext,
  participantId: string,
  input: Static<typeof FeedbackInput>,
) {
  const outcome = input.outcome ?? null
  const fit = input.fit ?? null
  const hash = payloadHash(input)
  const earlier = replayOf(await findOwnFeedbackByClientId(ctx.db, participantId, input.client_id), hash)
  if (earlier) return { id: Number(earlier.id), duplicate: true }
  const id = await nextId(ctx.db, 'feedback')
  await insertFeedback(ctx.db, {
    id,
    participant_id: participantId,
    category: input.category,
    content: input.content,
    client_id: input.client_id,
    outcome,
    fit,
    created_at: iso(ctx.now),
    quarantined: 0,
    payload_hash: hash,
    signals: storedSignals([input.content]),
  })
  await recordUsage(ctx, participantId, (activity) =>
    feedbackUsage(activity, { category: input.category, outcome, fit }),
  )
  return { id, duplicate: false }
}
