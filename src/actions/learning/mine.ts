import { defineAction } from '../../core/action.ts'
import { LIMITS } from '../../schemas/common.ts'
import { MyLearningInput, MyLearningResult } from '../../schemas/learning.ts'
import { consentsOf } from '../../store/learning/consents.ts'
import { ownRecords } from '../../store/learning/read.ts'

export const myLearning = defineAction({
  name: 'my_learning',
  summary: 'Your learning records with every version, their review and consent state, and your consent decisions.',
  description:
    'Private to your key. Each record says whether its lesson is public now and whether it is exportable now, and ' +
    'which consent each source has. Page records with after and consents with consent_after.',
  http: { method: 'POST', path: '/api/learning' },
  auth: 'participant',
  effect: 'read',
  allowPaused: true,
  input: MyLearningInput,
  output: MyLearningResult,
  errors: {},
  examples: [(refs) => ({ key: refs.caller.key })],
  paging: [
    { cursor: 'after', items: ['records'], next: 'next_cursor', hasMore: 'has_more' },
    { cursor: 'consent_after', items: ['consents'], next: 'next_consent_cursor', hasMore: 'consents_has_more' },
  ],
  mcp: { title: 'Read your learning records', toolset: 'learning' },
  handler: async (ctx, input) => {
    const participantId = ctx.participant.id
    const limit = input.limit ?? LIMITS.page_default
    const records = await ownRecords(ctx.db, participantId, { after: input.after ?? 0, limit })
    const consents = await consentsOf(ctx.db, participantId, { after: input.consent_after ?? 0, limit })
    return {
      records: records.items,
      next_cursor: records.next,
      has_more: records.hasMore,
      consents: consents.items,
      next_consent_cursor: consents.next,
      consents_has_more: consents.hasMore,
    }
  },
})
