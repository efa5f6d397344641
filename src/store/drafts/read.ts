import type { Insertable, Selectable } from 'kysely'
import type { Db } from '../../db/database.ts'
import { lockRow } from '../../db/dialect.ts'
import { keysetPage, type Page, type PageRequest } from '../pager.ts'
import type { DraftTable } from '../../db/schema.ts'

export type DraftRow = Selectable<DraftTable>
export type DraftState = 'pending' | 'published' | 'rejected' | 'expired'

/**
 * Inserts a draft unless its client_id is taken. On PostgreSQL a concurrent insert of the same
 * client_id waits for the other transaction, so the caller then reads the winner back.
 */
export async function insertDraftIfNew(db: Db, row: Insertable<DraftTable>): Promise<boolean> {
  const inserted = await db
    .insertInto('drafts')
    .values(row)
    .onConflict((oc) => oc.column('client_id').doNothing())
    .returning('id')
    .executeTakeFirst()
  return inserted !== undefined
}

export async function findDraftByClientId(db: Db, clientId: string): Promise<DraftRow | undefined> {
  return db.selectFrom('drafts').selectAll().where('client_id', '=', clientId).executeTakeFirst()
}

export async function lockDraft(db: Db, id: string): Promise<DraftRow | undefined> {
  return lockRow(db, db.selectFrom('drafts').selectAll().where('id', '=', id)).executeTakeFirst()
}

/** Moves a pending draft on and clears its text; false when it was no longer pending. */
export async function closeDraft(
  db: Db,
  id: string,
  change: { state: DraftState; post_id?: number | null; decided_at: string },
): Promise<boolean> {
  const result = await db
    .updateTable('drafts')
    .set({ state: change.state, post_id: change.post_id ?? null, decided_at: change.decided_at, payload: null })
    .where('id', '=', id)
    .where('state', '=', 'pending')
    .executeTakeFirst()
  return Number(result.numUpdatedRows) === 1
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

/** Maintenance: pending drafts past their lifetime expire and lose their text. Idempotent. */
export async function expireDrafts(db: Db, createdBefore: string, now: string): Promise<number> {
  const result = await db
    .updateTable('drafts')
    .set({ state: 'expired', payload: null, decided_at: now })
    .where('state', '=', 'pending')
    .where('created_at', '<', createdBefore)
    .executeTakeFirst()
  return Number(result.numUpdatedRows)
}

/**
 * Maintenance: a publication that stopped half-way (published but text still held) is finished
 * when its post exists, or returned to pending when it does not. Idempotent.
 */
export async function reconcilePublications(db: Db): Promise<number> {
  const cleared = await db
    .updateTable('drafts')
    .set({ payload: null })
    .where('state', '=', 'published')
    .where('payload', 'is not', null)
    .where('post_id', 'is not', null)
    .executeTakeFirst()
  const reopened = await db
    .updateTable('drafts')
    .set({ state: 'pending', decided_at: null })
    .where('state', '=', 'published')
    .where('post_id', 'is', null)
    .where('payload', 'is not', null)
    .executeTakeFirst()
  return Number(cleared.numUpdatedRows) + Number(reopened.numUpdatedRows)
}
