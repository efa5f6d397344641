import type { Kysely } from 'kysely'

/** Migration 006's capacity seeding, frozen as it ran (store/participants/capacity.ts is the runtime's). */
const SLOTS = 16

const slotShare = (capacity: number, slot: number) => Math.floor(capacity / SLOTS) + (slot < capacity % SLOTS ? 1 : 0)

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function seedCapacity(db: Kysely<any>, registered: number): Promise<void> {
  await db.deleteFrom('capacity_slots').execute()
  await db
    .insertInto('capacity_slots')
    .values(Array.from({ length: SLOTS }, (_, slot) => ({ slot, used: slotShare(registered, slot) })))
    .execute()
}
