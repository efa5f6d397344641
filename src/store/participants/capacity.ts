import { sql, type Kysely, type QueryCreator } from 'kysely'
import { prepared } from '../../db/prepared.ts'
import type { Schema } from '../../db/schema.ts'

/**
 * Registration capacity without a counter every join locks: the capacity is split over SLOTS rows
 * and a join takes one unit from a slot that has room. On PostgreSQL a slot another join holds is
 * skipped (SKIP LOCKED), so concurrent joins take different slots instead of queueing. The total is
 * exact: a slot's share is fixed by the configured capacity, and a refused join keeps no unit
 * (store/participants/registration.ts).
 */
export const SLOTS = 16

/** The share of the capacity slot `slot` holds. */
export function slotShare(capacity: number, slot: number): number {
  return Math.floor(capacity / SLOTS) + (slot < capacity % SLOTS ? 1 : 0)
}

/** A slot's share of the capacity, split as slotShare does: each holds `share`, the first `extraBelow` one more. */
export type Share = { share: number; extraBelow: number }
export const shareOf = (capacity: number): Share => ({
  share: Math.floor(capacity / SLOTS),
  extraBelow: capacity % SLOTS,
})
const shareSql = (v: Share) =>
  sql<number>`(cast(${v.share} as bigint) + case when slot < cast(${v.extraBelow} as integer) then 1 else 0 end)`

/**
 * The slot with the most room, none when no slot has room. PostgreSQL locks the slot it reads:
 * `skip` passes over the slots other joins hold, `wait` queues behind them. SQLite has one writer
 * and needs neither.
 */
export const pickSlot = (qc: QueryCreator<Schema>, share: Share, lock: 'skip' | 'wait' | 'none') => {
  const free = qc
    .selectFrom('capacity_slots')
    .select('slot')
    .where('used', '<', shareSql(share))
    .orderBy('used')
    .orderBy('slot')
    // Written into the text, not bound: PostgreSQL costs a generic plan's `limit $n` as a tenth of
    // the rows, so it re-planned this statement on every join (a custom plan each time).
    .limit(sql.lit(1))
  return lock === 'skip' ? free.forUpdate().skipLocked() : lock === 'wait' ? free.forUpdate() : free
}

/** Takes one unit from the slots its caller's condition names, answering the slot. */
export const takeSlotStep = (qc: QueryCreator<Schema>) =>
  qc
    .updateTable('capacity_slots')
    .set((eb) => ({ used: eb('used', '+', 1) }))
    .returning('slot')

/**
 * Takes one unit from the slot with the most room, none when no slot has room, as a statement of its
 * own, compiled once (db/prepared.ts): SQLite's joins (PostgreSQL's take theirs in the join's
 * statement, store/participants/registration.ts).
 */
export const takeSlotUnlocked = prepared((db, v: Share) => takeSlotStep(db).where('slot', '=', pickSlot(db, v, 'none')))

/** Spreads the registrations made so far over the slots (migration 006, benchmark seeding). */
export async function seedCapacity(db: Kysely<Schema>, registered: number): Promise<void> {
  await db.deleteFrom('capacity_slots').execute()
  await db
    .insertInto('capacity_slots')
    .values(Array.from({ length: SLOTS }, (_, slot) => ({ slot, used: slotShare(registered, slot) })))
    .execute()
}
