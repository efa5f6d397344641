import type { Db } from './database.ts'
import { markPublicChange } from './public-stamp.ts'

export type QuarantineTarget = 'contribution' | 'memory_revision' | 'feedback'

const TABLES = {
  contribution: 'contributions',
  memory_revision: 'memory_revisions',
  feedback: 'feedback',
} as const

/** Sets the quarantine mark of one item; false when no such item exists. The original stays stored. */
export async function setQuarantined(db: Db, target: QuarantineTarget, id: number, on: boolean): Promise<boolean> {
  const result = await db
    .updateTable(TABLES[target])
    .set({ quarantined: on ? 1 : 0 })
    .where('id', '=', id)
    .executeTakeFirst()
  await markPublicChange(db)
  return Number(result.numUpdatedRows) === 1
}

/** Quarantines every revision of a note (a report names the note, not one revision). */
export async function quarantineNote(db: Db, memoryId: string): Promise<number> {
  const result = await db
    .updateTable('memory_revisions')
    .set({ quarantined: 1 })
    .where('memory_id', '=', memoryId)
    .executeTakeFirst()
  await markPublicChange(db)
  return Number(result.numUpdatedRows)
}
