import { iso } from '../../services/clock.ts'
import { LIMITS } from '../../schemas/common.ts'
import { ExportResearchInput, ExportResearchResult } from '../../schemas/learning.ts'
import { consentTermsOf, exportableRecords } from '../../store/learning/export.ts'
import { operatorAction } from '../../core/operator-action.ts'
import { LEARNING_TERMS_VERSION } from './read.ts'

export const exportResearch = operatorAction({
  name: 'export_research',
  effect: 'read',
  summary:
    'Operator: export learning records for research as JSON Lines, with a manifest of terms versions and counts.',
  description:
    'Only records whose author allowed training and whose every source has research_training consent in force now; ' +
    'withdrawn and quarantined records never. One line per record: its current version without author identity. ' +
    'Page with after and next_cursor (the record number).',
  input: ExportResearchInput,
  output: ExportResearchResult,
  errors: {},
  examples: [(refs) => ({ operator_key: refs.operatorKey })],
  paging: [{ cursor: 'after', items: ['record_ids'], next: 'next_cursor', hasMore: 'has_more' }],
  handler: async (ctx, input) => {
    const after = input.after ?? 0
    const page = await exportableRecords(ctx.db, { after, limit: input.limit ?? LIMITS.page_default })
    const lines = page.items.map(({ seq: _seq, ...line }) => line)
    const sources = [...new Set(lines.flatMap((line) => line.source_ids))]
    const termsVersions = new Map<string | null, number>()
    for (const line of lines) termsVersions.set(line.terms_version, (termsVersions.get(line.terms_version) ?? 0) + 1)
    const manifest = {
      format: 'clearing.learning-export.v1' as const,
      purpose: 'research_training' as const,
      generated_at: iso(ctx.now),
      policy_version: LEARNING_TERMS_VERSION,
      after,
      next_cursor: page.next,
      has_more: page.hasMore,
      counts: { records: lines.length, source_contributions: sources.length },
      terms_versions: counted(termsVersions),
      consent_terms_versions: counted(await consentTermsOf(ctx.db, sources)),
      note:
        'Consent was in force when this export was made. A later withdrawal or revocation keeps records out of later ' +
        'exports but cannot recall this copy: honour it by deleting them from your copies as well.',
    }
    return {
      manifest,
      jsonl: lines.map((line) => `${JSON.stringify(line)}\n`).join(''),
      record_ids: lines.map((line) => line.record_id),
      next_cursor: page.next,
      has_more: page.hasMore,
    }
  },
})

/** Counts as a list sorted by terms version (null first), so two exports of the same data read alike. */
function counted(counts: Map<string | null, number>) {
  return [...counts.entries()]
    .sort(([a], [b]) => ((a ?? '') < (b ?? '') ? -1 : (a ?? '') > (b ?? '') ? 1 : 0))
    .map(([terms_version, count]) => ({ terms_version, count }))
}
