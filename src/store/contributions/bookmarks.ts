import type { Selectable } from 'kysely'
import type { Db } from '../../db/database.ts'
import type { BookmarkTable } from '../../db/schema.ts'

export type BookmarkRow = Selectable<BookmarkTable>

export async function findBookmark(db: Db, participantId: string): Promise<BookmarkRow | undefined> {
  return db.selectFrom('bookmarks').selectAll().where('participant_id', '=', participantId).executeTakeFirst()
}

export async function saveBookmark(db: Db, row: BookmarkRow): Promise<void> {
  const { participant_id: _id, ...changes } = row
  await db
    .insertInto('bookmarks')
    .values(row)
    .onConflict((oc) => oc.column('participant_id').doUpdateSet(changes))
    .execute()
}
