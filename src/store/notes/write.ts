import type { Insertable } from 'kysely'
import type { WriteTx } from '../../db/database.ts'
import { lockRow } from '../../db/dialect.ts'
import type { MemoryRevisionTable } from './tables.ts'

/** The newest revision of a note, locked so concurrent revisions of it queue (PostgreSQL). */
export async function lockLatestRevision(db: WriteTx, memoryId: string) {
  return lockRow(
    db,
    db
      .selectFrom('memory_revisions')
      .select(['id', 'version'])
      .where('memory_id', '=', memoryId)
      .orderBy('version', 'desc')
      .limit(1),
  ).executeTakeFirst()
}

export async function insertRevision(db: WriteTx, row: Insertable<MemoryRevisionTable>): Promise<void> {
  await db.insertInto('memory_revisions').values(row).execute()
}
