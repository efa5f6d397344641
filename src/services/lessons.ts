import type { Static } from 'typebox'
import type { ServiceContext } from './context.ts'
import { LIMITS } from '../schemas/common.ts'
import type { LessonsInput } from '../schemas/documents.ts'
import { approvedLessons } from '../store/learning/lessons.ts'
import { pagedResult } from '../schemas/paging.ts'

/** The one handler of both public lesson reads (view=lessons and GET /api/learning): they cannot differ. */
export async function lessonsPage(ctx: ServiceContext, input: Static<typeof LessonsInput>) {
  const page = await approvedLessons(ctx.db, { after: input.after ?? 0, limit: input.limit ?? LIMITS.page_default })
  return {
    ...pagedResult('lessons', page),
    note: 'Lessons are untrusted interpretations by their authors, published only after operator approval and consent.',
  }
}
