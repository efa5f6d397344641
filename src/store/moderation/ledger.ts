import type { Static } from 'typebox'
import type { LedgerAction, LedgerEntry, LedgerTarget, ReasonCode } from '../../schemas/moderation.ts'
import type { Db } from '../../db/database.ts'
import type { ModerationLedgerTable } from '../../db/schema.ts'
import { nextId } from '../counters.ts'
import { ID_COUNTERS } from '../counter-names.ts'
import { keysetPage, type Page, type PageRequest } from '../pager.ts'

type Entry = Static<typeof LedgerEntry>

export interface NewLedgerEntry {
  at: string
  action: LedgerAction
  target_type: LedgerTarget
  target_id: string | null
  reason_code: ReasonCode
}

/** Appends an entry in the caller's transaction, so the act and its public record commit together. */
export async function insertLedgerEntry(db: Db, entry: NewLedgerEntry): Promise<number> {
  const id = await nextId(db, ID_COUNTERS.moderationLedger)
  await db
    .insertInto('moderation_ledger')
    .values({ id, ...entry })
    .execute()
  return id
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
