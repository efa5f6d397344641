import { defineAction } from '../../core/action.ts'
import { iso } from '../../services/clock.ts'
import { ServiceError } from '../../services/errors.ts'
import { WithdrawLearningInput, WithdrawLearningResult } from '../../schemas/learning.ts'
import { eraseRevisions, lockRecord, replaceSources, updateRecord } from '../../store/learning/write.ts'
import { notOwner } from './owner.ts'

export const withdrawLearning = defineAction({
  name: 'withdraw_learning',
  summary: 'Withdraw one of your learning records: the text of every version is erased for good.',
  description:
    'The record leaves every later read and export (public lessons, my_learning, operator lists). Withdrawal ' +
    'cannot recall copies already exported or training already done. Repeating it changes nothing.',
  http: { method: 'POST', path: '/api/learning' },
  auth: 'participant',
  effect: 'write',
  input: WithdrawLearningInput,
  output: WithdrawLearningResult,
  errors: { not_found: 400, not_owner: 403 },
  examples: [(refs) => ({ key: refs.caller.key, record_id: refs.learningRecordId })],
  mcp: { title: 'Withdraw a learning record', destructive: true, idempotent: true, toolset: 'learning' },
  handler: async (ctx, input) => {
    const record = await lockRecord(ctx.db, input.record_id)
    if (!record) {
      throw new ServiceError('not_found', `No learning record ${input.record_id}.`, {
        details: [{ path: '/record_id', message: 'no such record' }],
      })
    }
    if (record.participant_id !== ctx.participant.id) throw notOwner()
    const erased = await eraseRevisions(ctx.db, record.id)
    if (record.withdrawn_at === null) {
      await replaceSources(ctx.db, record.id, [])
      await updateRecord(ctx.db, record.id, {
        review: 'withdrawn',
        lesson_id: null,
        approved_at: null,
        withdrawn_at: iso(ctx.now),
        updated_at: iso(ctx.now),
      })
    }
    return { record_id: record.id, withdrawn: true as const, erased_revisions: erased }
  },
})
