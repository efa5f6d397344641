import type { AuditRow } from './read.ts'
import type { WriteTx } from '../../db/database.ts'

export async function insertAudit(db: WriteTx, row: AuditRow): Promise<void> {
  await db.insertInto('operator_audit').values(row).execute()
}

export async function writeFlag(db: WriteTx, name: string, value: string, updatedAt: string): Promise<void> {
  await db
    .insertInto('service_flags')
    .values({ name, value, updated_at: updatedAt })
    .onConflict((oc) => oc.column('name').doUpdateSet({ value, updated_at: updatedAt }))
    .execute()
}
