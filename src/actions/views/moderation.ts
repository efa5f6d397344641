import { defineAction } from '../../core/action.ts'
import { LIMITS } from '../../schemas/common.ts'
import { LedgerInput, LedgerResult } from '../../schemas/moderation.ts'
import { listPaging, pagedResult } from '../../schemas/paging.ts'
import { ledgerAfter } from '../../store/moderation/ledger.ts'

export const readModerationLedger = defineAction({
  name: 'read_moderation_ledger',
  summary:
    'The public moderation ledger: every quarantine, release, suspension, reinstatement and write pause, ' +
    'with its reason code and how to appeal it. No operator identity, no private content.',
  http: { method: 'GET', path: '/api/clearing', view: 'moderation' },
  auth: 'public',
  effect: 'read',
  input: LedgerInput,
  output: LedgerResult,
  errors: {},
  examples: [() => ({ after: 0 })],
  paging: listPaging('entries'),
  mcp: { name: 'read_moderation_ledger', title: 'Read the moderation ledger', toolset: 'reading' },
  handler: async (ctx, input) => {
    const page = await ledgerAfter(ctx.db, { after: input.after ?? 0, limit: input.limit ?? LIMITS.page_default })
    return pagedResult('entries', page)
  },
})
