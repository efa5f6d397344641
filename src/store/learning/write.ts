import type { Insertable, Updateable } from 'kysely'
import type { Db } from '../../db/database.ts'
import { lockRow } from '../../db/dialect.ts'
import type { LearningRecordTable, LearningRevisionTable } from '../../db/schema.ts'

/** Write side of learning records; reads go through learning-records.ts and lessons.ts. */
export async function findOwnLearningByClientId(db: Db, participantId: string, clientId: string) {
  return db
    .selectFrom('learning_revisions')
    .select(['record_id', 'version', 'payload_hash'])
    .where('participant_id', '=', participantId)
    .where('client_id', '=', clientId)
    .executeTakeFirst()
}

/** The record row, locked so concurrent saves, withdrawals and reviews of it queue (PostgreSQL). */
export async function lockRecord(db: Db, recordId: string) {
  return lockRow(db, db.selectFrom('learning_records').selectAll().where('id', '=', recordId)).executeTakeFirst()
}

export async function insertRecord(db: Db, row: Insertable<LearningRecordTable>): Promise<void> {
  await db.insertInto('learning_records').values(row).execute()
}

export async function updateRecord(db: Db, recordId: string, changes: Updateable<LearningRecordTable>) {
  await db.updateTable('learning_records').set(changes).where('id', '=', recordId).execute()
}

export async function insertLearningRevision(db: Db, row: Insertable<LearningRevisionTable>): Promise<void> {
  await db.insertInto('learning_revisions').values(row).execute()
}

/** The sources of the record's current version: what consent is checked against. */
export async function replaceSources(db: Db, recordId: string, contributionIds: number[]): Promise<void> {
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
export async function eraseRevisions(db: Db, recordId: string): Promise<number> {
  const result = await db
    .updateTable('learning_revisions')
    .set({ lesson: null, feedback: null, revision: null, outcome: null, payload_hash: null, signals: null })
    .where('record_id', '=', recordId)
    .where('lesson', 'is not', null)
    .executeTakeFirst()
  return Number(result.numUpdatedRows)
}

/** Which of the given ids name published contributions (provisional non-positive ids are not). */
export async function publicContributionIds(db: Db, ids: number[]): Promise<Set<number>> {
  const rows = await db.selectFrom('contributions').select('id').where('id', 'in', ids).where('id', '>', 0).execute()
  return new Set(rows.map((r) => Number(r.id)))
}

/** The author of a published contribution, or undefined when there is none. */
export async function contributionAuthor(db: Db, id: number): Promise<string | undefined> {
  const row = await db
    .selectFrom('contributions')
    .select('participant_id')
    .where('id', '=', id)
    .where('id', '>', 0)
    .executeTakeFirst()
  return row?.participant_id
}

/** Quarantine of a lesson marks its record, so the mark outlives revisions and a new approval. */
export async function setLessonQuarantined(
  db: Db,
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
