import { defineAction } from '../../core/action.ts'
import { FeedbackInput, FeedbackResult } from '../../schemas/feedback.ts'
import { createFeedback } from '../../services/feedback.ts'

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
