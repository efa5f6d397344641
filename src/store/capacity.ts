import { sql, type Kysely, type QueryCreator } from 'kysely'
import { chargeBucket, chargeStep, type BucketEvent } from './abuse.ts'
import type { Db } from './database.ts'
import { isPostgres } from './dialect.ts'
import { prepared } from './prepared.ts'
import type { Schema } from './schema.ts'

/**
 * Registration capacity without a counter every join locks: the capacity is split over SLOTS rows
 * and a join takes one unit from a slot that has room. On PostgreSQL a slot another join holds is
 * skipped (SKIP LOCKED), so concurrent joins take different slots instead of queueing. The total is
 * exact: a slot's share is fixed by the configured capacity and a rolled-back join gives its unit back.
 */
export const SLOTS = 16

/** The share of the capacity slot `slot` holds. */
export function slotShare(capacity: number, slot: number): number {
  return Math.floor(capacity / SLOTS) + (slot < capacity % SLOTS ? 1 : 0)
}

/** A slot's share of the capacity, split as slotShare does: each holds `share`, the first `extraBelow` one more. */
type Share = { share: number; extraBelow: number }
const shareOf = (capacity: number): Share => ({ share: Math.floor(capacity / SLOTS), extraBelow: capacity % SLOTS })
const shareSql = (v: Share) =>
  sql<number>`(cast(${v.share} as bigint) + case when slot < cast(${v.extraBelow} as integer) then 1 else 0 end)`

/**
 * Takes one unit from the slot with the most room, answering the slot; none when no slot has room
 * (or, skipping locked ones, none free). PostgreSQL locks the slot it reads: `skip` passes over the
 * slots other joins hold, `wait` queues behind them. SQLite has one writer and needs neither.
 */
const takeSlot = (qc: QueryCreator<Schema>, share: Share, lock: 'skip' | 'wait' | 'none') =>
  qc
    .updateTable('capacity_slots')
    .set((eb) => ({ used: eb('used', '+', 1) }))
    .where('slot', '=', (eb) => {
      const free = eb
        .selectFrom('capacity_slots')
        .select('slot')
        .where('used', '<', shareSql(share))
        .orderBy('used')
        .orderBy('slot')
        // Written into the text, not bound: PostgreSQL costs a generic plan's `limit $n` as a tenth of
        // the rows, so it re-planned this statement on every join (a custom plan each time).
        .limit(sql.lit(1))
      return lock === 'skip' ? free.forUpdate().skipLocked() : lock === 'wait' ? free.forUpdate() : free
    })
    .returning('slot')

/**
 * The slot step as a statement of its own, compiled once (store/prepared.ts): every join on SQLite
 * runs it unlocked, and a join on PostgreSQL that found no free slot runs it waiting.
 */
const takeSlotUnlocked = prepared((db, v: Share) => takeSlot(db, v, 'none'))
const takeSlotWaiting = prepared((db, v: Share) => takeSlot(db, v, 'wait'))

/**
 * PostgreSQL: a join's charge to its client's registration bucket (the same step the bucket's own
 * statement runs) and its unit of capacity (the slot step, skipping held slots) in one round trip
 * instead of two (focused writes, three pairs: join 1,894-1,970 -> 2,022-2,145/s). The unit is taken
 * only while the bucket's count is within the limit; a refused join rolls its transaction back,
 * charge included, as before.
 */
const chargeAndTake = prepared((db, v: BucketEvent & Share & { limit: number }) =>
  db
    .with('charged', (qc) => chargeStep(qc, v))
    .with('taken', (qc) => takeSlot(qc, v, 'skip').where(sql<boolean>`(select count from charged) <= ${v.limit}`))
    .selectNoFrom((eb) => [
      eb.selectFrom('charged').select('charged.count').as('count'),
      eb.selectFrom('taken').select('taken.slot').as('slot'),
    ]),
)

/**
 * Charges one registration to its client's bucket and, while the bucket's count is within `limit`,
 * takes a unit of capacity, in the caller's transaction: the count with the charge, and whether a
 * unit was taken.
 */
export async function chargeAndTakeCapacity(
  db: Db,
  event: BucketEvent,
  limit: number,
  capacity: number,
): Promise<{ count: number; taken: boolean }> {
  if (!isPostgres(db)) {
    const count = await chargeBucket(db, event)
    return { count, taken: count <= limit && (await takeSlotUnlocked(db, shareOf(capacity))).length > 0 }
  }
  const share = shareOf(capacity)
  const [row] = await chargeAndTake(db, { ...event, limit, ...share })
  if (row === undefined) throw new Error('the charge and capacity statement returned no row')
  const count = Number(row.count)
  if (count > limit) return { count, taken: false }
  // No slot with room was free: every one was held by another join, or registration is full.
  if (row.slot !== null) return { count, taken: true }
  return { count, taken: (await takeSlotWaiting(db, share)).length > 0 }
}

/** Spreads the registrations made so far over the slots (migration 006, benchmark seeding). */
export async function seedCapacity(db: Kysely<Schema>, registered: number): Promise<void> {
  await db.deleteFrom('capacity_slots').execute()
  await db
    .insertInto('capacity_slots')
    .values(Array.from({ length: SLOTS }, (_, slot) => ({ slot, used: slotShare(registered, slot) })))
    .execute()
}
