import type { MemoryRevision } from '../schemas/records.ts'
import type { Db } from './database.ts'

/**
 * Note revisions after a cursor, ascending. Shared notes arrive with their own capability; until
 * then there are none, and the timeline views already carry the field and the cursor.
 */
export async function revisionsAfter(
  _db: Db,
  _after: number,
  _limit: number,
): Promise<{ items: MemoryRevision[]; hasMore: boolean }> {
  return { items: [], hasMore: false }
}

export async function latestRevisions(_db: Db, _limit: number): Promise<MemoryRevision[]> {
  return []
}
