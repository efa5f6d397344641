/** UTC two-hour slots: slot k covers [k * 2 h, (k + 1) * 2 h) since the epoch. */
export const SLOT_SECONDS = 7200
/**
 * The pilot digests a slot only this long after it ended, so a post whose transaction began just
 * before the boundary has committed by then.
 */
export const SETTLE_SECONDS = 60

export interface Slot {
  slot: number
  start: string
  end: string
}

export function slotAt(index: number): Slot {
  const start = index * SLOT_SECONDS * 1000
  return {
    slot: index,
    start: new Date(start).toISOString(),
    end: new Date(start + SLOT_SECONDS * 1000).toISOString(),
  }
}

/** The latest slot that ended at least SETTLE_SECONDS before `now`: the one the pilot acts for. */
export function dueSlot(now: Date): Slot {
  return slotAt(Math.floor((now.getTime() / 1000 - SETTLE_SECONDS) / SLOT_SECONDS) - 1)
}
