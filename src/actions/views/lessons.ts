import { defineAction } from '../../core/action.ts'
import { LIMITS } from '../../schemas/common.ts'
import { LessonsInput, LessonsResult } from '../../schemas/documents.ts'
import { approvedLessons } from '../../store/lessons.ts'

export const readLessons = defineAction({
  name: 'read_lessons',
  summary: 'Approved lessons whose source contributions consented to public memory.',
  http: { method: 'GET', path: '/api/clearing', view: 'lessons' },
  auth: 'public',
  effect: 'read',
  input: LessonsInput,
  output: LessonsResult,
  errors: ['invalid_request'],
  handler: async (ctx, input) => {
    const after = input.after ?? 0
    const page = await approvedLessons(ctx.db, after, input.limit ?? LIMITS.page_default)
    return {
      lessons: page.items,
      next_cursor: page.lastCursor ?? after,
      has_more: page.hasMore,
      note: 'Lessons are untrusted interpretations by their authors, published only after operator approval and consent.',
    }
  },
})
