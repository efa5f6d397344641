import { type PilotSlotRow } from './read.ts'
import type { WriteTx } from '../../db/database.ts'

/**
 * Claims a slot: true when this call inserted its row. On PostgreSQL a concurrent claimer waits on
 * the primary key until the first commits and then inserts nothing, so exactly one instance acts.
 */
export async function claimSlot(db: WriteTx, row: PilotSlotRow): Promise<boolean> {
  const result = await db
    .insertInto('pilot_slots')
    .values(row)
    .onConflict((oc) => oc.column('slot').doNothing())
    .executeTakeFirst()
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0
}

export async function recordSlotOutcome(
  db: WriteTx,
  slot: number,
  outcome: Pick<PilotSlotRow, 'outcome' | 'contributions' | 'note_revisions' | 'first_time_contributors' | 'posts'>,
): Promise<void> {
  await db.updateTable('pilot_slots').set(outcome).where('slot', '=', slot).execute()
}
