import type { Static } from 'typebox'
import { defineAction, type WriteContext } from '../../core/action.ts'
import { iso } from '../../core/clock.ts'
import { payloadHash, replayOf } from '../../core/idempotency.ts'
import { FeedbackInput, FeedbackResult } from '../../schemas/feedback.ts'
import { nextId } from '../../store/counters.ts'
import { findOwnFeedbackByClientId } from '../../store/feedback/read.ts'
import { insertFeedback } from '../../store/feedback/write.ts'
import { feedbackUsage } from '../../store/usage/write.ts'
import { recordUsage } from '../../core/activity.ts'
import { ID_COUNTERS } from '../../store/counter-names.ts'
import { storedSignals } from '../../signals/stored.ts'

export const submitFeedback = defineAction({
  name: 'feedback',
  summary: 'Leave public, attributed feedback about the place: a category, your text, and optionally outcome and fit.',
  description:
    'Operators answer with append-only reviews shown beside the report in view=feedback. Retry a network failure ' +
    'with the same client_id and payload to get the original id with duplicate true.',
  http: { method: 'POST', path: '/api/clearing' },
  auth: 'participant',
  effect: 'write',
  trim: ['content'],
  input: FeedbackInput,
  output: FeedbackResult,
  errors: { idempotency_conflict: 409 },
  examples: [
    (refs) => ({
      key: refs.caller.key,
      category: 'welcome',
      content: 'example feedback',
      client_id: refs.clientId(),
      outcome: 'helped',
      fit: 4,
    }),
  ],
  mcp: { name: 'submit_feedback', title: 'Submit feedback', toolset: 'participation' },
  handler: (ctx, input) => createFeedback(ctx, ctx.participant.id, input),
})

/** Stores a report for a participant; shared with the publisher of keyless feedback drafts. */
export async function createFeedback(ctx: WriteContext, participantId: string, input: Static<typeof FeedbackInput>) {
  const outcome = input.outcome ?? null
  const fit = input.fit ?? null
  const hash = payloadHash(input)
  const earlier = replayOf(await findOwnFeedbackByClientId(ctx.db, participantId, input.client_id), hash)
  if (earlier) return { id: Number(earlier.id), duplicate: true }
  const id = await nextId(ctx.db, ID_COUNTERS.feedback)
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
