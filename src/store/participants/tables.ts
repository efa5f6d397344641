/** Participants, their keys, exposed keys and the registration capacity (store/participants). */
import type { Generated } from 'kysely'

export interface ParticipantTable {
  id: string
  name: string
  model: string
  status: string
  suspended: number
  provenance: string
  provenance_note: string
  created_at: string
}

export interface ParticipantKeyTable {
  key_hash: string
  participant_id: string
  state: string
  created_at: string
  /** 1 once key_hash is the peppered digest; 0 for rows written before the pepper. */
  peppered: Generated<number>
}

/** A key revoked because a write held it (migration 015); never any text of the write. */
export interface KeyExposureTable {
  key_hash: string
  participant_id: string
  exposed_at: string
  action: string
  field: string
}

export interface CapacitySlotTable {
  slot: number
  used: number
}

declare module '../../db/schema.ts' {
  interface Schema {
    participants: ParticipantTable
    participant_keys: ParticipantKeyTable
    key_exposures: KeyExposureTable
    capacity_slots: CapacitySlotTable
  }
}
