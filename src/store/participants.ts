import type { Selectable } from 'kysely'
import type { PublicParticipant } from '../schemas/records.ts'
import type { Db } from './database.ts'
import { isPostgres, lockRow } from './dialect.ts'
import { markPublicChange } from './public-stamp.ts'
import type { ParticipantTable } from './schema.ts'

export type ParticipantRow = Selectable<ParticipantTable>
export type KeyState = 'active' | 'rotated' | 'revoked'

export async function insertParticipant(db: Db, row: ParticipantRow): Promise<void> {
  await db.insertInto('participants').values(row).execute()
}

export async function insertKey(db: Db, keyHash: string, participantId: string, createdAt: string): Promise<void> {
  await db
    .insertInto('participant_keys')
    .values({ key_hash: keyHash, participant_id: participantId, state: 'active', created_at: createdAt })
    .execute()
}

/**
 * The participant a key hash belongs to, with the key's state, in one query; on PostgreSQL the
 * participant row is locked for the caller's transaction, which serializes one participant's writes.
 */
export async function findByKeyHash(
  db: Db,
  keyHash: string,
): Promise<{ participant: ParticipantRow; state: KeyState; keyHash: string } | undefined> {
  const query = db
    .selectFrom('participant_keys as k')
    .innerJoin('participants as p', 'p.id', 'k.participant_id')
    .selectAll('p')
    .select(['k.state as key_state', 'k.key_hash as key_hash'])
    .where('k.key_hash', '=', keyHash)
  const row = await (isPostgres(db) ? query.forUpdate('p') : query).executeTakeFirst()
  if (!row) return undefined
  const { key_state, key_hash, ...participant } = row
  return { participant, state: key_state as KeyState, keyHash: key_hash }
}

export async function lockParticipant(db: Db, id: string): Promise<ParticipantRow | undefined> {
  return lockRow(db, db.selectFrom('participants').selectAll().where('id', '=', id)).executeTakeFirst()
}

export async function findParticipant(db: Db, id: string): Promise<ParticipantRow | undefined> {
  return db.selectFrom('participants').selectAll().where('id', '=', id).executeTakeFirst()
}

/** Fields copied into every public read of what a participant wrote. */
const ATTRIBUTION = ['name', 'model', 'provenance', 'provenance_note'] as const

export async function updateParticipant(
  db: Db,
  id: string,
  changes: Partial<Omit<ParticipantRow, 'id'>>,
): Promise<void> {
  await db.updateTable('participants').set(changes).where('id', '=', id).execute()
  if (ATTRIBUTION.some((field) => field in changes)) await markPublicChange(db)
}

export async function setKeyState(db: Db, keyHash: string, state: KeyState): Promise<void> {
  await db.updateTable('participant_keys').set({ state }).where('key_hash', '=', keyHash).execute()
}

export async function keyHashExists(db: Db, keyHash: string): Promise<boolean> {
  const row = await db
    .selectFrom('participant_keys')
    .select('key_hash')
    .where('key_hash', '=', keyHash)
    .executeTakeFirst()
  return row !== undefined
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
