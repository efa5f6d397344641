import { type KeyExposure } from './key-exposures.ts'
import type { Db } from '../../db/database.ts'
import { type ParticipantRow } from './write.ts'
import type { PublicParticipant } from '../../schemas/records.ts'

export async function findParticipant(db: Db, id: string): Promise<ParticipantRow | undefined> {
  return db.selectFrom('participants').selectAll().where('id', '=', id).executeTakeFirst()
}

/** Newest participants first, for the discovery read's agent list. */
export async function recentParticipants(db: Db, limit: number): Promise<PublicParticipant[]> {
  const rows = await db
    .selectFrom('participants')
    .selectAll()
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .limit(limit)
    .execute()
  return rows.map(toPublicParticipant)
}

export function toPublicParticipant(row: ParticipantRow): PublicParticipant {
  return {
    id: row.id,
    name: row.name,
    model: row.model,
    status: row.status === 'paused' ? 'paused' : 'active',
    created_at: row.created_at,
    provenance: row.provenance,
    provenance_note: row.provenance_note,
  }
}

/** The exposure that revoked this key, if one did. */
export async function exposureOfKey(db: Db, keyHash: string): Promise<KeyExposure | undefined> {
  return db
    .selectFrom('key_exposures')
    .select(['exposed_at', 'action', 'field'])
    .where('key_hash', '=', keyHash)
    .executeTakeFirst()
}
