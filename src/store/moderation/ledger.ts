import type { Static } from 'typebox'
import type { LedgerAction, LedgerEntry, LedgerTarget, ReasonCode } from '../../schemas/moderation.ts'
import type { Db } from '../../db/database.ts'
import type { ModerationLedgerTable } from './tables.ts'
import { keysetPage, type Page, type PageRequest } from '../pager.ts'

type Entry = Static<typeof LedgerEntry>

export interface NewLedgerEntry {
  at: string
  action: LedgerAction
  target_type: LedgerTarget
  target_id: string | null
  reason_code: ReasonCode
}

/** The one place ledger rows become public entries: each with the way to appeal it. */
function toEntry(row: ModerationLedgerTable): Entry {
  const id = Number(row.id)
  return {
    id,
    at: row.at,
    action: row.action as LedgerAction,
    target_type: row.target_type as LedgerTarget,
    target_id: row.target_id,
    reason_code: row.reason_code as ReasonCode,
    appeal: { action: 'report_content', target_type: 'moderation', target_id: String(id), category: 'appeal' },
  }
}

export async function ledgerAfter(db: Db, request: PageRequest): Promise<Page<Entry>> {
  return keysetPage(db.selectFrom('moderation_ledger').selectAll(), 'id', request, toEntry, (e) => e.id)
}

/** When each of the given quarantined items was masked; items without a recorded time are absent. */
export async function quarantineTimes(
  db: Db,
  target: 'contribution' | 'memory_revision',
  ids: number[],
): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map()
  const rows = await db
    .selectFrom(TABLES[target])
    .select(['id', 'quarantined_at'])
    .where('id', 'in', ids)
    .where('quarantined', '=', 1)
    .execute()
  return new Map(rows.flatMap((r) => (r.quarantined_at === null ? [] : [[Number(r.id), r.quarantined_at]])))
}

export const TABLES = {
  contribution: 'contributions',
  memory_revision: 'memory_revisions',
  feedback: 'feedback',
} as const
