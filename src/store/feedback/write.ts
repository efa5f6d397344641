import type { Insertable } from 'kysely'
import type { WriteTx } from '../../db/database.ts'
import { lockRow } from '../../db/dialect.ts'
import type { FeedbackReviewTable, FeedbackTable } from './tables.ts'

export async function insertFeedback(db: WriteTx, row: Insertable<FeedbackTable>): Promise<void> {
  await db.insertInto('feedback').values(row).execute()
}

/**
 * Whether a report exists, locking it for the caller's transaction: reviews of one report then queue
 * (PostgreSQL), so each sees the latest review status before it moves the status counters.
 */
export async function lockFeedback(db: WriteTx, id: number): Promise<boolean> {
  const row = await lockRow(db, db.selectFrom('feedback').select('id').where('id', '=', id)).executeTakeFirst()
  return row !== undefined
}

export async function insertReview(db: WriteTx, row: Insertable<FeedbackReviewTable>): Promise<void> {
  await db.insertInto('feedback_reviews').values(row).execute()
}
