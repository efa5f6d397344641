import { TABLES, type NewLedgerEntry } from './ledger.ts'
import type { WriteTx } from '../../db/database.ts'
import { nextId } from '../counters.ts'
import type { QUARANTINE_TARGETS } from '../../schemas/operator.ts'
import { setLessonQuarantined } from '../learning/write.ts'
import { markPublicChange } from '../public-stamp.ts'

export type QuarantineTarget = (typeof QUARANTINE_TARGETS)[number]

/**
 * Sets the quarantine mark of one item, with the time it began (`at`, ISO 8601) and the public ledger
 * entry that masked it (`moderationId`; cleared on release); false when no such item exists. The
 * original stays stored.
 */
export async function setQuarantined(
  db: WriteTx,
  target: QuarantineTarget,
  id: number,
  on: boolean,
  at: string,
  moderationId: number,
): Promise<boolean> {
  // Lessons are not cached reads (store/learning/lessons.ts evaluates consent at read time): no stamp to bump.
  if (target === 'lesson') return setLessonQuarantined(db, id, on, moderationId)
  const result = await db
    .updateTable(TABLES[target])
    .set({ quarantined: on ? 1 : 0, quarantined_at: on ? at : null, moderation_id: on ? moderationId : null })
    .where('id', '=', id)
    .executeTakeFirst()
  await markPublicChange(db)
  return Number(result.numUpdatedRows) === 1
}

/** Quarantines every revision of a note (a report names the note, not one revision). */
export async function quarantineNote(db: WriteTx, memoryId: string, at: string, moderationId: number): Promise<number> {
  const result = await db
    .updateTable('memory_revisions')
    .set({ quarantined: 1, quarantined_at: at, moderation_id: moderationId })
    .where('memory_id', '=', memoryId)
    .executeTakeFirst()
  await markPublicChange(db)
  return Number(result.numUpdatedRows)
}

/** Appends an entry in the caller's transaction, so the act and its public record commit together. */
export async function insertLedgerEntry(db: WriteTx, entry: NewLedgerEntry): Promise<number> {
  const id = await nextId(db, 'moderation_ledger')
  await db
    .insertInto('moderation_ledger')
    .values({ id, ...entry })
    .execute()
  return id
}
