import type { Db } from '../../db/database.ts'
import { IS_EXPORTABLE, recordsWithCurrent } from './lessons.ts'
import { keysetPage, type Page, type PageRequest } from '../pager.ts'

/** One exported record: the current version's text and terms, with no author identity. */
export interface ExportLine {
  record_id: string
  version: number
  terms_version: string
  source_ids: number[]
  lesson: string
  feedback: string
  revision: string
  outcome: string
  created_at: string
  revised_at: string
}

function exportable(db: Db) {
  return recordsWithCurrent(db)
    .select([
      'r.id',
      'r.seq',
      'r.version',
      'r.created_at',
      'v.terms_version',
      'v.source_ids',
      'v.lesson',
      'v.feedback',
      'v.revision',
      'v.outcome',
      'v.created_at as revised_at',
    ])
    .where(IS_EXPORTABLE)
}

type Row = Awaited<ReturnType<ReturnType<typeof exportable>['executeTakeFirstOrThrow']>>

function toLine(row: Row): ExportLine & { seq: number } {
  return {
    seq: Number(row.seq),
    record_id: row.id,
    version: Number(row.version),
    terms_version: row.terms_version,
    source_ids: JSON.parse(row.source_ids) as number[],
    // Withdrawn records are never exportable, so their erased (null) text never reaches here.
    lesson: row.lesson ?? '',
    feedback: row.feedback ?? '',
    revision: row.revision ?? '',
    outcome: row.outcome ?? '',
    created_at: row.created_at,
    revised_at: row.revised_at,
  }
}

/**
 * Records exportable for research now (training allowed, every source with research_training
 * consent in force, not withdrawn or quarantined) after a record number.
 */
export async function exportableRecords(db: Db, request: PageRequest): Promise<Page<ExportLine & { seq: number }>> {
  return keysetPage(exportable(db), 'r.seq', request, toLine, (line) => line.seq)
}

/** The terms_version given with the research_training grant of each source, counted. */
export async function consentTermsOf(db: Db, contributionIds: number[]): Promise<Map<string | null, number>> {
  const counts = new Map<string | null, number>()
  if (contributionIds.length === 0) return counts
  const rows = await db
    .selectFrom('learning_consents')
    .select('terms_version')
    .where('purpose', '=', 'research_training')
    .where('contribution_id', 'in', contributionIds)
    .execute()
  for (const row of rows) counts.set(row.terms_version, (counts.get(row.terms_version) ?? 0) + 1)
  return counts
}
