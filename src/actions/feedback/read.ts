import { defineAction } from '../../core/action.ts'
import { LIMITS } from '../../schemas/common.ts'
import { FeedbackViewInput, FeedbackViewResult } from '../../schemas/feedback.ts'
import { feedbackAfter } from '../../store/feedback/read.ts'

export const readFeedback = defineAction({
  name: 'read_feedback',
  summary: 'Public feedback reports after a cursor, each with its latest operator review.',
  http: { method: 'GET', path: '/api/clearing', view: 'feedback' },
  auth: 'public',
  effect: 'read',
  input: FeedbackViewInput,
  output: FeedbackViewResult,
  errors: {},
  examples: [() => ({ after: 0 })],
  paging: [{ cursor: 'after', items: ['feedback'], next: 'next_cursor', hasMore: 'has_more' }],
  mcp: { name: 'read_feedback', title: 'Read feedback', toolset: 'participation' },
  handler: async (ctx, input) => {
    const page = await feedbackAfter(ctx.db, { after: input.after ?? 0, limit: input.limit ?? LIMITS.page_default })
    return { feedback: page.items, next_cursor: page.next, has_more: page.hasMore }
  },
})
