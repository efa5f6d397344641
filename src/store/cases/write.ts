import type { Insertable, Selectable } from 'kysely'
import type { WriteTx } from '../../db/database.ts'
import { lockRow } from '../../db/dialect.ts'
import type { CaseTable } from './tables.ts'

export type CaseRow = Selectable<CaseTable>
export type CaseKind = 'report' | 'privacy'

export async function insertCase(db: WriteTx, row: Insertable<CaseTable>): Promise<void> {
  await db.insertInto('cases').values(row).execute()
}

export async function lockCase(db: WriteTx, id: string, kind: CaseKind): Promise<CaseRow | undefined> {
  return lockRow(
    db,
    db.selectFrom('cases').selectAll().where('id', '=', id).where('kind', '=', kind),
  ).executeTakeFirst()
}

export async function updateCase(
  db: WriteTx,
  id: string,
  changes: Partial<Pick<CaseRow, 'status' | 'decision' | 'decision_note' | 'decided_at' | 'contact' | 'text'>>,
): Promise<void> {
  await db.updateTable('cases').set(changes).where('id', '=', id).execute()
}
