import type { QUARANTINE_TARGETS } from '../../schemas/operator.ts'
import type { Db } from '../../db/database.ts'
import { setLessonQuarantined } from '../learning/write.ts'
import { markPublicChange } from '../public-stamp.ts'

export type QuarantineTarget = (typeof QUARANTINE_TARGETS)[number]

const TABLES = {
  contribution: 'contributions',
  memory_revision: 'memory_revisions',
  feedback: 'feedback',
} as const

/**
 * Sets the quarantine mark of one item, with the time it began (`at`, ISO 8601) and the public ledger
 * entry that masked it (`moderationId`; cleared on release); false when no such item exists. The
 * original stays stored.
 */
export async function setQuarantined(
  db: Db,
  target: QuarantineTarget,
  id: number,
  on: boolean,
  at: string,
  moderationId: number,
): Promise<boolean> {
  // Lessons are not cached reads (store/lessons.ts evaluates consent at read time): no stamp to bump.
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
export async function quarantineNote(db: Db, memoryId: string, at: string, moderationId: number): Promise<number> {
  const result = await db
    .updateTable('memory_revisions')
    .set({ quarantined: 1, quarantined_at: at, moderation_id: moderationId })
    .where('memory_id', '=', memoryId)
    .executeTakeFirst()
  await markPublicChange(db)
  return Number(result.numUpdatedRows)
}

/** When each of the given quarantined items was masked; items without a recorded time are absent. */
export async function quarantineTimes(
  db: Db,
  target: 'contribution' | 'memory_revision',
  ids: number[],
): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map()
  const rows = await db
    .selectFrom(TABLES[target])
    .select(['id', 'quarantined_at'])
    .where('id', 'in', ids)
    .where('quarantined', '=', 1)
    .execute()
  return new Map(rows.flatMap((r) => (r.quarantined_at === null ? [] : [[Number(r.id), r.quarantined_at]])))
}
