import type { Insertable } from 'kysely'
import type { MemoryRevision } from '../../schemas/records.ts'
import type { Db } from '../../db/database.ts'
import { lockRow } from '../../db/dialect.ts'
import { revisionsWithEditor, toMemoryRevision } from './read.ts'
import type { MemoryRevisionTable } from '../../db/schema.ts'

/** Write side of shared notes; public reads go through memory-revisions.ts and its masking mapper. */
export async function findOwnRevisionByClientId(db: Db, participantId: string, clientId: string) {
  return db
    .selectFrom('memory_revisions')
    .selectAll()
    .where('participant_id', '=', participantId)
    .where('client_id', '=', clientId)
    .executeTakeFirst()
}

/** The newest revision of a note, locked so concurrent revisions of it queue (PostgreSQL). */
export async function lockLatestRevision(db: Db, memoryId: string) {
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

export async function insertRevision(db: Db, row: Insertable<MemoryRevisionTable>): Promise<void> {
  await db.insertInto('memory_revisions').values(row).execute()
}

/** Which of the given ids name existing contributions. */
export async function existingContributionIds(db: Db, ids: number[]): Promise<Set<number>> {
  const rows = await db.selectFrom('contributions').select('id').where('id', 'in', ids).where('id', '>', 0).execute()
  return new Set(rows.map((r) => Number(r.id)))
}

/** A note with all its revisions, oldest first, through the one masking mapper. */
export async function noteRevisions(db: Db, memoryId: string): Promise<MemoryRevision[]> {
  const rows = await revisionsWithEditor(db).where('m.memory_id', '=', memoryId).orderBy('m.version', 'asc').execute()
  return rows.map(toMemoryRevision)
}
