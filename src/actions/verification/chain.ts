import { defineAction } from '../../core/action.ts'
import { LIMITS } from '../../schemas/common.ts'
import { ChainViewInput, ChainViewResult } from '../../schemas/receipts.ts'
import { contributionRecord, revisionRecord } from '../../services/receipts/records.ts'
import { contributionTextsAfter, revisionTextsAfter } from '../../store/chain/read.ts'

export const readChain = defineAction({
  name: 'read_chain',
  summary:
    'The public history as it is hash-chained: each record (text replaced by its SHA-256), the text itself unless ' +
    'masked, and the signed chain head. npm run verify reads this; docs/verification.md explains the rule.',
  http: { method: 'GET', path: '/api/clearing', view: 'chain' },
  mcp: { title: 'Read the hash chain', toolset: 'reading' },
  auth: 'public',
  effect: 'read',
  input: ChainViewInput,
  output: ChainViewResult,
  errors: {},
  examples: [() => ({ chain: 'contributions', after: 0 })],
  paging: [{ cursor: 'after', items: ['records'], next: 'next_cursor', hasMore: 'has_more' }],
  handler: async (ctx, input) => {
    const chain = input.chain ?? 'contributions'
    const after = input.after ?? 0
    const limit = input.limit ?? LIMITS.page_default
    // The head first: every record up to it is published, so a verifier pages up to head.last_id.
    const head = (await ctx.services.chain.heads()).find((h) => h.chain === chain)
    if (!head) throw new Error(`no head for chain ${chain}`)
    const entries =
      chain === 'contributions'
        ? (await contributionTextsAfter(ctx.db, after, limit + 1)).map(({ row, text, envelope }) => ({
            record: contributionRecord({ ...row, content_digest: row.content_digest ?? '' }),
            content: text,
            ...envelope,
          }))
        : (await revisionTextsAfter(ctx.db, after, limit + 1)).map(({ row, text, envelope }) => ({
            record: revisionRecord({ ...row, content_digest: row.content_digest ?? '' }),
            content: text,
            ...envelope,
          }))
    const records = entries.slice(0, limit)
    return {
      chain,
      records,
      next_cursor: records.at(-1)?.record.id ?? after,
      has_more: entries.length > limit,
      head,
    }
  },
})
