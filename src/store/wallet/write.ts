import type { Insertable, Selectable } from 'kysely'
import type { WriteTx } from '../../db/database.ts'
import type { TipReceiptTable, WalletNonceTable, WalletSessionTable } from './tables.ts'

export type SessionRow = Selectable<WalletSessionTable>
export type TipReceiptRow = Selectable<TipReceiptTable>
export type NonceRow = Selectable<WalletNonceTable>

/** Nonces and sessions this long past their expiry are deleted when new ones are made. */
const KEEP_EXPIRED_MS = 86_400_000

export async function insertNonce(db: WriteTx, row: Insertable<WalletNonceTable>): Promise<void> {
  await db.insertInto('wallet_nonces').values(row).execute()
}

/**
 * Marks a nonce used, if it is still unused, unexpired and issued to this address: one conditional
 * UPDATE, so of any number of concurrent sign-ins with one message exactly one changes the row (on
 * PostgreSQL the others wait for its row lock, then find used_at set). Returns whether this call did.
 */
export async function consumeNonce(db: WriteTx, digest: string, address: string, now: string): Promise<boolean> {
  const result = await db
    .updateTable('wallet_nonces')
    .set({ used_at: now })
    .where('nonce_digest', '=', digest)
    .where('address', '=', address)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst()
  return Number(result.numUpdatedRows) === 1
}

/** Old nonces and sessions go as new ones come: a bounded table without a maintenance step. */
export async function deleteExpiredSignIns(db: WriteTx, now: Date): Promise<void> {
  const cutoff = new Date(now.getTime() - KEEP_EXPIRED_MS).toISOString()
  await db.deleteFrom('wallet_nonces').where('expires_at', '<', cutoff).execute()
  await db.deleteFrom('wallet_sessions').where('expires_at', '<', cutoff).execute()
}

export async function insertSession(db: WriteTx, row: Insertable<WalletSessionTable>): Promise<void> {
  await db.insertInto('wallet_sessions').values(row).execute()
}

export async function revokeSession(db: WriteTx, digest: string, now: string): Promise<void> {
  await db
    .updateTable('wallet_sessions')
    .set({ revoked_at: now })
    .where('token_digest', '=', digest)
    .where('revoked_at', 'is', null)
    .execute()
}

/** Links (or re-links) a participant to a wallet: one wallet per participant. */
export async function upsertLink(db: WriteTx, participantId: string, address: string, now: string): Promise<void> {
  await db
    .insertInto('wallet_links')
    .values({ participant_id: participantId, address, linked_at: now })
    .onConflict((oc) => oc.column('participant_id').doUpdateSet({ address, linked_at: now }))
    .execute()
}

export async function deleteLink(db: WriteTx, participantId: string): Promise<boolean> {
  const result = await db.deleteFrom('wallet_links').where('participant_id', '=', participantId).executeTakeFirst()
  return Number(result.numDeletedRows) > 0
}

export async function insertReceipt(db: WriteTx, row: TipReceiptRow): Promise<void> {
  await db.insertInto('tip_receipts').values(row).execute()
}
