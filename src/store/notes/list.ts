import type { MemoryRevision } from '../../schemas/records.ts'
import type { Db } from '../../db/database.ts'
import { revisionsWithEditor, toMemoryRevision } from './read.ts'
import { keysetPage, type Page, type PageRequest } from '../pager.ts'

/**
 * Every shared note once, as its current revision, in ascending order of that revision's id, after a
 * cursor. A note revised later moves to the end, so a reader who keeps its cursor sees each note
 * whose current revision it has not seen, exactly once per change. Uses the unique index on
 * (memory_id, version); only public revisions (id > 0) count as newer.
 */
export async function currentRevisionsAfter(db: Db, request: PageRequest): Promise<Page<MemoryRevision>> {
  const query = revisionsWithEditor(db).where(({ not, exists, selectFrom }) =>
    not(
      exists(
        selectFrom('memory_revisions as newer')
          .select('newer.id')
          .whereRef('newer.memory_id', '=', 'm.memory_id')
          .whereRef('newer.version', '>', 'm.version')
          .where('newer.id', '>', 0),
      ),
    ),
  )
  return keysetPage(query, 'm.id', request, toMemoryRevision, (r) => r.id)
}
