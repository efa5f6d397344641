import type { Selectable } from 'kysely'
import type { Db } from '../../db/database.ts'
import { keysetPage, type Page, type PageRequest } from '../pager.ts'
import type { OperatorAuditTable } from './tables.ts'
import { type AlertRow } from './alerts.ts'

export async function dedupeKeyTaken(db: Db, dedupeKey: string): Promise<boolean> {
  const row = await db.selectFrom('alert_outbox').select('id').where('dedupe_key', '=', dedupeKey).executeTakeFirst()
  return row !== undefined
}

export async function listAlerts(db: Db): Promise<AlertRow[]> {
  return db.selectFrom('alert_outbox').selectAll().orderBy('id', 'asc').execute()
}

export type AuditRow = Selectable<OperatorAuditTable>

export async function listAudit(db: Db, request: PageRequest): Promise<Page<AuditRow>> {
  const toEntry = (row: AuditRow): AuditRow => ({ ...row, id: Number(row.id) })
  return keysetPage(db.selectFrom('operator_audit').selectAll(), 'id', request, toEntry, (row) => row.id)
}
