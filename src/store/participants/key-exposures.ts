import type { WriteTx } from '../../db/database.ts'

/** What the owner of an exposed key is told: when, and in which action and field; never the text. */
export interface KeyExposure {
  exposed_at: string
  action: string
  field: string
}

/**
 * Revokes an active participant key found in a write and records the exposure for its owner, in the
 * caller's transaction. A key unknown, rotated or already revoked is left as it is (false).
 */
export async function revokeExposedKey(db: WriteTx, keyHash: string, exposure: KeyExposure): Promise<boolean> {
  const revoked = await db
    .updateTable('participant_keys')
    .set({ state: 'revoked' })
    .where('key_hash', '=', keyHash)
    .where('state', '=', 'active')
    .returning('participant_id')
    .executeTakeFirst()
  if (!revoked) return false
  await db
    .insertInto('key_exposures')
    .values({ key_hash: keyHash, participant_id: revoked.participant_id, ...exposure })
    .onConflict((c) => c.column('key_hash').doNothing())
    .execute()
  return true
}
