import type { Selectable } from 'kysely'
import type { Db } from '../../db/database.ts'
import { keysetPage, type Page, type PageRequest } from '../pager.ts'
import type { OperatorAuditTable } from '../../db/schema.ts'

export type AuditRow = Selectable<OperatorAuditTable>

export async function insertAudit(db: Db, row: AuditRow): Promise<void> {
  await db.insertInto('operator_audit').values(row).execute()
}

export async function listAudit(db: Db, request: PageRequest): Promise<Page<AuditRow>> {
  const toEntry = (row: AuditRow): AuditRow => ({ ...row, id: Number(row.id) })
  return keysetPage(db.selectFrom('operator_audit').selectAll(), 'id', request, toEntry, (row) => row.id)
}
