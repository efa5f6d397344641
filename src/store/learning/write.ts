import { type ConsentRow } from './consents.ts'
import type { Insertable, Updateable } from 'kysely'
import type { WriteTx } from '../../db/database.ts'
import type { LearningRecordTable, LearningRevisionTable } from './tables.ts'
import { lockRow } from '../../db/dialect.ts'

/** The record row, locked so concurrent saves, withdrawals and reviews of it queue (PostgreSQL). */
export async function lockRecord(db: WriteTx, recordId: string) {
  return lockRow(db, db.selectFrom('learning_records').selectAll().where('id', '=', recordId)).executeTakeFirst()
}

export async function insertRecord(db: WriteTx, row: Insertable<LearningRecordTable>): Promise<void> {
  await db.insertInto('learning_records').values(row).execute()
}

export async function updateRecord(db: WriteTx, recordId: string, changes: Updateable<LearningRecordTable>) {
  await db.updateTable('learning_records').set(changes).where('id', '=', recordId).execute()
}

export async function insertLearningRevision(db: WriteTx, row: Insertable<LearningRevisionTable>): Promise<void> {
  await db.insertInto('learning_revisions').values(row).execute()
}

/** The sources of the record's current version: what consent is checked against. */
export async function replaceSources(db: WriteTx, recordId: string, contributionIds: number[]): Promise<void> {
  await db.deleteFrom('learning_sources').where('record_id', '=', recordId).execute()
  if (contributionIds.length === 0) return
  await db
    .insertInto('learning_sources')
    .values(contributionIds.map((id) => ({ record_id: recordId, contribution_id: id })))
    .execute()
}

/**
 * Withdrawal: the text of every revision is overwritten with null, and so is the payload hash (it is
 * derived from the text). Returns how many revisions still had text.
 */
export async function eraseRevisions(db: WriteTx, recordId: string): Promise<number> {
  const result = await db
    .updateTable('learning_revisions')
    .set({ lesson: null, feedback: null, revision: null, outcome: null, payload_hash: null, signals: null })
    .where('record_id', '=', recordId)
    .where('lesson', 'is not', null)
    .executeTakeFirst()
  return Number(result.numUpdatedRows)
}

/** Quarantine of a lesson marks its record, so the mark outlives revisions and a new approval. */
export async function setLessonQuarantined(
  db: WriteTx,
  lessonId: number,
  on: boolean,
  moderationId: number,
): Promise<boolean> {
  const result = await db
    .updateTable('learning_records')
    .set({ quarantined: on ? 1 : 0, moderation_id: on ? moderationId : null })
    .where('lesson_id', '=', lessonId)
    .executeTakeFirst()
  return Number(result.numUpdatedRows) === 1
}

/** Records a decision; it replaces the earlier one for the same contribution and purpose. */
export async function recordConsent(db: WriteTx, row: ConsentRow): Promise<void> {
  const { contribution_id: _id, purpose: _purpose, ...decision } = row
  await db
    .insertInto('learning_consents')
    .values(row)
    .onConflict((oc) => oc.columns(['contribution_id', 'purpose']).doUpdateSet(decision))
    .execute()
}
