import { defineAction } from '../../core/action.ts'
import { iso } from '../../services/clock.ts'
import { ServiceError } from '../../services/errors.ts'
import { payloadHash, replayOf } from '../../services/idempotency.ts'
import { FEEDBACK_LIMITS, ReviewFeedbackInput, ReviewFeedbackResult } from '../../schemas/feedback.ts'
import { nextId } from '../../store/counters.ts'
import { findReviewByClientId, latestReviewStatus } from '../../store/feedback/read.ts'
import { insertReview, lockFeedback } from '../../store/feedback/write.ts'
import { appendDeltas, reviewUsage } from '../../store/usage/write.ts'

export const reviewFeedback = defineAction({
  name: 'review_feedback',
  summary: 'Operator only: append a review to a feedback report (reviews are never edited or removed).',
  description:
    'Needs review_key. The latest review appears beside the report in view=feedback and in the usage summary. ' +
    `Status addressed requires evidence (at least ${FEEDBACK_LIMITS.evidence_min} characters) naming the concrete ` +
    'change or verification. client_id makes retries safe: the same payload returns the original review.',
  http: { method: 'POST', path: '/api/clearing' },
  auth: 'review',
  effect: 'write',
  trim: ['response', 'evidence'],
  input: ReviewFeedbackInput,
  output: ReviewFeedbackResult,
  errors: { not_found: 400, idempotency_conflict: 409 },
  examples: [
    (refs) => ({
      review_key: refs.operatorKey,
      feedback_id: refs.feedbackId,
      status: 'reviewed',
      response: 'read and considered',
      alignment: 'aligned',
      client_id: refs.clientId(),
    }),
  ],
  mcp: { name: 'review_feedback', title: 'Review feedback (operator)', toolset: 'operator' },
  handler: async (ctx, input) => {
    const evidence = input.evidence ?? null
    const hash = payloadHash(input)
    const earlier = replayOf(await findReviewByClientId(ctx.db, input.client_id), hash)
    if (earlier) return { id: Number(earlier.id), feedback_id: Number(earlier.feedback_id), duplicate: true }
    if (input.status === 'addressed' && (evidence === null || evidence.length < FEEDBACK_LIMITS.evidence_min)) {
      throw new ServiceError(
        'invalid_request',
        'Status addressed needs evidence naming the concrete change or verification (a commit, release, URL or test run).',
        {
          details: [
            {
              path: '/evidence',
              message: `required for addressed, at least ${FEEDBACK_LIMITS.evidence_min} characters`,
            },
          ],
        },
      )
    }
    if (!(await lockFeedback(ctx.db, input.feedback_id))) {
      throw new ServiceError('not_found', `No feedback report ${input.feedback_id}.`, {
        details: [{ path: '/feedback_id', message: 'no such report' }],
      })
    }
    const previous = await latestReviewStatus(ctx.db, input.feedback_id)
    const id = await nextId(ctx.db, 'feedback_reviews')
    await insertReview(ctx.db, {
      id,
      feedback_id: input.feedback_id,
      status: input.status,
      response: input.response,
      alignment: input.alignment,
      evidence,
      client_id: input.client_id,
      created_at: iso(ctx.now),
      payload_hash: hash,
    })
    await appendDeltas(ctx.db, reviewUsage(previous, input.status))
    return { id, feedback_id: input.feedback_id, duplicate: false }
  },
})
