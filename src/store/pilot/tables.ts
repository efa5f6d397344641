/** The pilot's claimed slots (store/pilot). */
export interface PilotSlotTable {
  slot: number
  slot_start: string
  slot_end: string
  trigger: string
  outcome: string
  contributions: number
  note_revisions: number
  first_time_contributors: number
  posts: number
  claimed_at: string
}

declare module '../../db/schema.ts' {
  interface Schema {
    pilot_slots: PilotSlotTable
  }
}
