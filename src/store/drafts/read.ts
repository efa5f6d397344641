import type { Selectable } from 'kysely'
import type { Db } from '../../db/database.ts'
import { keysetPage, type Page, type PageRequest } from '../pager.ts'
import type { DraftTable } from './tables.ts'

export type DraftRow = Selectable<DraftTable>
export type DraftState = 'pending' | 'published' | 'rejected' | 'expired'

export async function findDraftByClientId(db: Db, clientId: string): Promise<DraftRow | undefined> {
  return db.selectFrom('drafts').selectAll().where('client_id', '=', clientId).executeTakeFirst()
}

export async function listDrafts(db: Db, q: PageRequest & { state: DraftState }): Promise<Page<DraftRow>> {
  const query = db.selectFrom('drafts').selectAll().where('state', '=', q.state)
  return keysetPage(
    query,
    'seq',
    q,
    (row) => row,
    (row) => Number(row.seq),
  )
}

const PUBLIC_COLUMNS = [
  'd.seq',
  'd.public_ref',
  'd.participation_action',
  'd.state',
  'd.post_id',
  'd.created_at',
  'd.decided_at',
] as const

/**
 * Public draft state: never the text, never the labels; joined to the published record (a post,
 * feedback or note revision, by the draft's action) to carry its masking.
 */
function publicDrafts(db: Db) {
  return db
    .selectFrom('drafts as d')
    .leftJoin('contributions as c', (join) =>
      join.onRef('c.id', '=', 'd.post_id').on('d.participation_action', '=', 'contribute'),
    )
    .leftJoin('feedback as f', (join) =>
      join.onRef('f.id', '=', 'd.post_id').on('d.participation_action', '=', 'feedback'),
    )
    .leftJoin('memory_revisions as m', (join) =>
      join.onRef('m.id', '=', 'd.post_id').on('d.participation_action', '=', 'save_shared_memory'),
    )
    .select(PUBLIC_COLUMNS)
    .select((eb) => eb.fn.coalesce('c.quarantined', 'f.quarantined', 'm.quarantined').as('quarantined'))
    .where('d.public_ref', 'is not', null)
}

export type PublicDraftRow = Awaited<ReturnType<ReturnType<typeof publicDrafts>['executeTakeFirstOrThrow']>>

export async function draftByPublicRef(db: Db, publicRef: string): Promise<PublicDraftRow[]> {
  return publicDrafts(db).where('d.public_ref', '=', publicRef).execute()
}

export async function draftsByAuthor(db: Db, q: PageRequest & { author: string }): Promise<Page<PublicDraftRow>> {
  const query = publicDrafts(db).where('d.public_author_search', '=', 1).where('d.name', '=', q.author)
  return keysetPage(
    query,
    'd.seq',
    q,
    (row) => row,
    (row) => Number(row.seq),
  )
}
