import { type DraftRow, type DraftState } from './read.ts'
import type { Insertable } from 'kysely'
import type { WriteTx } from '../../db/database.ts'
import { lockRow } from '../../db/dialect.ts'
import type { DraftTable } from './tables.ts'

/**
 * Inserts a draft unless its client_id is taken. On PostgreSQL a concurrent insert of the same
 * client_id waits for the other transaction, so the caller then reads the winner back.
 */
export async function insertDraftIfNew(db: WriteTx, row: Insertable<DraftTable>): Promise<boolean> {
  const inserted = await db
    .insertInto('drafts')
    .values(row)
    .onConflict((oc) => oc.column('client_id').doNothing())
    .returning('id')
    .executeTakeFirst()
  return inserted !== undefined
}

export async function lockDraft(db: WriteTx, id: string): Promise<DraftRow | undefined> {
  return lockRow(db, db.selectFrom('drafts').selectAll().where('id', '=', id)).executeTakeFirst()
}

/** Moves a pending draft on and clears its text; false when it was no longer pending. */
export async function closeDraft(
  db: WriteTx,
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

/** Maintenance: pending drafts past their lifetime expire and lose their text. Idempotent. */
export async function expireDrafts(db: WriteTx, createdBefore: string, now: string): Promise<number> {
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
export async function reconcilePublications(db: WriteTx): Promise<number> {
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
