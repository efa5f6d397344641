import { iso } from '../../services/clock.ts'
import { ServiceError } from '../../services/errors.ts'
import type { WriteContext } from '../../core/action.ts'
import { LIMITS } from '../../schemas/common.ts'
import {
  ApproveLearningInput,
  ListLearningInput,
  ListLearningResult,
  RejectLearningInput,
  ReviewResult,
} from '../../schemas/learning.ts'
import { listPaging, pagedResult } from '../../schemas/paging.ts'
import { nextId } from '../../store/counters.ts'
import { NAMED_COUNTERS } from '../../store/counter-names.ts'
import { lockRecord, updateRecord } from '../../store/learning/write.ts'
import { currentAllowsMemory, isPublicLesson, reviewQueue } from '../../store/learning/read.ts'
import { operatorAction } from '../../core/operator-action.ts'

export const listLearning = operatorAction({
  name: 'list_learning',
  effect: 'read',
  summary: 'Operator: learning records (optionally in one review state) with every version and source consent.',
  input: ListLearningInput,
  output: ListLearningResult,
  errors: {},
  examples: [(refs) => ({ operator_key: refs.operatorKey, review: 'pending' })],
  paging: listPaging('records'),
  handler: async (ctx, input) => {
    const page = await reviewQueue(ctx.db, {
      review: input.review,
      after: input.after ?? 0,
      limit: input.limit ?? LIMITS.page_default,
    })
    return pagedResult('records', page)
  },
})

export const approveLearning = operatorAction({
  name: 'approve_learning',
  summary: 'Operator: approve the version of a learning record you reviewed for public memory.',
  description:
    'The lesson is listed publicly while its memory_allowed and the memory consent of every source are in force. ' +
    'Approval draws a new lesson id (the lessons cursor). A newer version than the one reviewed answers 409.',
  input: ApproveLearningInput,
  output: ReviewResult,
  errors: { not_found: 400, version_conflict: 409, state_conflict: 409 },
  examples: [(refs) => ({ operator_key: refs.operatorKey, record_id: refs.reviewRecordId, version: 1 })],
  handler: async (ctx, input) => {
    const record = await liveRecord(ctx, input.record_id)
    const version = Number(record.version)
    if (version !== input.version) {
      throw new ServiceError(
        'version_conflict',
        `The record is at version ${version}, not ${input.version}: review the current version first.`,
        { details: [{ path: '/version', message: 'not the current version' }] },
      )
    }
    if (!(await currentAllowsMemory(ctx.db, record.id))) {
      throw new ServiceError('state_conflict', 'The author did not allow memory for this version; it cannot be public.')
    }
    let lessonId = record.lesson_id === null ? null : Number(record.lesson_id)
    if (lessonId === null) {
      lessonId = await nextId(ctx.db, NAMED_COUNTERS.learningLessons)
      await updateRecord(ctx.db, record.id, { review: 'approved', lesson_id: lessonId, approved_at: iso(ctx.now) })
    }
    const shown = await isPublicLesson(ctx.db, record.id)
    return { record_id: record.id, version, review: 'approved' as const, lesson_id: lessonId, public: shown }
  },
})

export const rejectLearning = operatorAction({
  name: 'reject_learning',
  summary: 'Operator: reject a learning record for public memory; an approved lesson leaves the public lessons.',
  input: RejectLearningInput,
  output: ReviewResult,
  errors: { not_found: 400 },
  examples: [(refs) => ({ operator_key: refs.operatorKey, record_id: refs.reviewRecordId, reason: 'example' })],
  handler: async (ctx, input) => {
    const record = await liveRecord(ctx, input.record_id)
    await updateRecord(ctx.db, record.id, { review: 'rejected', lesson_id: null, approved_at: null })
    return {
      record_id: record.id,
      version: Number(record.version),
      review: 'rejected' as const,
      lesson_id: null,
      public: false,
    }
  },
})

/** A record operators can review: withdrawn ones are gone from every read. */
async function liveRecord(ctx: WriteContext, recordId: string) {
  const record = await lockRecord(ctx.db, recordId)
  if (!record || record.withdrawn_at !== null) {
    throw new ServiceError('not_found', `No learning record ${recordId}.`, {
      details: [{ path: '/record_id', message: 'no such record' }],
    })
  }
  return record
}
