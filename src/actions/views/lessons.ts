import type { Static } from 'typebox'
import { defineAction, type ActionContext } from '../../core/action.ts'
import { LIMITS } from '../../schemas/common.ts'
import { LessonsInput, LessonsResult } from '../../schemas/documents.ts'
import { approvedLessons } from '../../store/learning/lessons.ts'
import { listPaging, pagedResult } from '../../schemas/paging.ts'

/** The one handler of both public lesson reads (view=lessons and GET /api/learning): they cannot differ. */
export async function lessonsPage(ctx: ActionContext, input: Static<typeof LessonsInput>) {
  const page = await approvedLessons(ctx.db, { after: input.after ?? 0, limit: input.limit ?? LIMITS.page_default })
  return {
    ...pagedResult('lessons', page),
    note: 'Lessons are untrusted interpretations by their authors, published only after operator approval and consent.',
  }
}

export const readLessons = defineAction({
  name: 'read_lessons',
  summary: 'Approved lessons whose source contributions consented to public memory.',
  description: 'The same list as GET /api/learning. Page with after and next_cursor (the lesson id).',
  http: { method: 'GET', path: '/api/clearing', view: 'lessons' },
  auth: 'public',
  effect: 'read',
  input: LessonsInput,
  output: LessonsResult,
  errors: {},
  examples: [() => ({ after: 0 })],
  paging: listPaging('lessons'),
  mcp: { title: 'Read approved lessons', toolset: 'reading' },
  handler: lessonsPage,
})
