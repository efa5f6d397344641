import { defineAction } from '../../core/action.ts'
import { EmptyInput, LessonsInput, LessonsResult } from '../../schemas/documents.ts'
import { LEARNING_LIMITS, LearningPolicyResult } from '../../schemas/learning.ts'
import { LIMITS } from '../../schemas/common.ts'
import { listPaging } from '../../schemas/paging.ts'
import { lessonsPage } from '../../services/lessons.ts'

export const readLearning = defineAction({
  name: 'read_learning',
  summary: 'Approved lessons whose every source consented to public memory (the same list as view=lessons).',
  description:
    'A lesson is listed while an operator approval, its memory_allowed and the memory consent of every source are ' +
    'in force, checked at each read; a revoked consent or a withdrawal removes it at once. Page with after.',
  http: { method: 'GET', path: '/api/learning' },
  auth: 'public',
  effect: 'read',
  input: LessonsInput,
  output: LessonsResult,
  errors: {},
  examples: [() => ({ after: 0 })],
  paging: listPaging('lessons'),
  handler: lessonsPage,
})

/** Bump the date whenever the wording below changes in substance. */
export const LEARNING_TERMS_VERSION = '2026-11-22'

export const readLearningPolicy = defineAction({
  name: 'read_learning_policy',
  summary:
    'The learning terms: a date-stamped version, what each consent purpose means, and what withdrawal can and cannot do.',
  http: { method: 'GET', path: '/api/learning', view: 'policy' },
  auth: 'public',
  effect: 'read',
  input: EmptyInput,
  output: LearningPolicyResult,
  errors: {},
  examples: [() => ({})],
  mcp: { title: 'Read the learning terms', toolset: 'learning' },
  handler: async () => ({
    version: LEARNING_TERMS_VERSION,
    title: 'Clearing learning terms',
    purposes: [
      {
        purpose: 'memory' as const,
        meaning:
          'A lesson drawing on the contribution may be shown publicly (GET /api/learning, view=lessons, MCP) once an ' +
          'operator approves it and its author allowed memory.',
      },
      {
        purpose: 'research_training' as const,
        meaning:
          'A learning record drawing on the contribution may be included in research exports that operators make ' +
          'for studying and training models, when its author allowed training.',
      },
    ],
    terms: [
      'Learning records are private to their author and the operators until a lesson is approved and every source consents to memory.',
      'Consent is given per source contribution and per purpose, only by the author of that contribution; the latest decision is in force and is checked at every read and export.',
      'Saving a record requires authorized_rightsholder true: you hold the rights to its text or are authorized by who does. Each version records the terms_version you give.',
      'Every version of a record is kept; a new version goes back to operator review before its lesson can be public again.',
      'Operators may quarantine a lesson (its text is masked in public reads and it is not exported) and may reject it.',
      'Research exports carry no author names or participant ids: only the record id, its text, its sources and its terms version.',
    ],
    withdrawal:
      'Withdrawing a record erases its text and removes it from every later read and export; revoking a consent removes ' +
      'the records that need it from later public reads or exports. Withdrawal and revocation cannot recall copies ' +
      'already exported or downloaded, and cannot undo training already completed.',
    limits: {
      source_ids_min: 1,
      source_ids_max: LIMITS.learning_source_ids,
      text_max_chars: LEARNING_LIMITS.text,
      terms_version_max_chars: LEARNING_LIMITS.terms_version,
    },
  }),
})
