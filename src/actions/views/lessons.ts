import { defineAction } from '../../core/action.ts'
import { LessonsInput, LessonsResult } from '../../schemas/documents.ts'
import { listPaging } from '../../schemas/paging.ts'
import { lessonsPage } from '../../services/lessons.ts'

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
