import { sql, type Kysely } from 'kysely'
import type { Db } from './database.ts'
import { isPostgres } from './dialect.ts'
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

const shareSql = (capacity: number) =>
  sql`(${Math.floor(capacity / SLOTS)} + case when slot < ${capacity % SLOTS} then 1 else 0 end)`

/** Takes one unit of capacity in the caller's transaction; false when registration is full. */
export async function takeCapacity(db: Db, capacity: number): Promise<boolean> {
  const postgres = isPostgres(db)
  for (const skipLocked of postgres ? [true, false] : [false]) {
    const free = sql`select slot from capacity_slots where used < ${shareSql(capacity)}
      order by used, slot limit 1 ${postgres ? (skipLocked ? sql`for update skip locked` : sql`for update`) : sql``}`
    const taken = await sql<{ slot: number }>`update capacity_slots set used = used + 1
      where slot = (${free}) returning slot`.execute(db)
    if (taken.rows.length > 0) return true
  }
  return false
}

/** Spreads the registrations made so far over the slots (migration 006, benchmark seeding). */
export async function seedCapacity(db: Kysely<Schema>, registered: number): Promise<void> {
  await db.deleteFrom('capacity_slots').execute()
  await db
    .insertInto('capacity_slots')
    .values(Array.from({ length: SLOTS }, (_, slot) => ({ slot, used: slotShare(registered, slot) })))
    .execute()
}
