import { type SessionRow, type TipReceiptRow, type NonceRow } from './write.ts'
import type { Db } from '../../db/database.ts'
import { keysetPage, type Page, type PageRequest } from '../pager.ts'

export async function findNonce(db: Db, digest: string): Promise<NonceRow | undefined> {
  return db.selectFrom('wallet_nonces').selectAll().where('nonce_digest', '=', digest).executeTakeFirst()
}

export async function findSession(db: Db, digest: string): Promise<SessionRow | undefined> {
  return db.selectFrom('wallet_sessions').selectAll().where('token_digest', '=', digest).executeTakeFirst()
}

/** The participants linked to a wallet, with their public name (private to the wallet's holder). */
export async function linksOf(db: Db, address: string) {
  return db
    .selectFrom('wallet_links as l')
    .innerJoin('participants as p', 'p.id', 'l.participant_id')
    .select(['l.participant_id', 'p.name', 'l.linked_at'])
    .where('l.address', '=', address)
    .orderBy('l.linked_at')
    .orderBy('l.participant_id')
    .execute()
}

export async function findReceiptByHash(db: Db, txHash: string): Promise<TipReceiptRow | undefined> {
  return db.selectFrom('tip_receipts').selectAll().where('tx_hash', '=', txHash).executeTakeFirst()
}

export async function receiptsOf(db: Db, address: string, request: PageRequest): Promise<Page<TipReceiptRow>> {
  return keysetPage(
    db.selectFrom('tip_receipts').selectAll().where('address', '=', address),
    'seq',
    request,
    (row) => row,
    (row) => Number(row.seq),
  )
}
