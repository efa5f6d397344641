import type { Selectable } from 'kysely'
import type { Db } from './database.ts'
import type { OperatorAuditTable } from './schema.ts'

export type AuditRow = Selectable<OperatorAuditTable>

export async function insertAudit(db: Db, row: AuditRow): Promise<void> {
  await db.insertInto('operator_audit').values(row).execute()
}

export async function listAudit(db: Db, after: number, limit: number): Promise<AuditRow[]> {
  return db.selectFrom('operator_audit').selectAll().where('id', '>', after).orderBy('id', 'asc').limit(limit).execute()
}
