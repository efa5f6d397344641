import type { Selectable, Updateable } from 'kysely'
import type { WriteTx } from '../../db/database.ts'
import { lockRow } from '../../db/dialect.ts'
import type { ServiceOrderTable } from './tables.ts'

export type OrderRow = Selectable<ServiceOrderTable>
export type OrderChanges = Updateable<ServiceOrderTable>

export const ORDER_STATES = ['awaiting_payment', 'paid', 'delivered', 'refund_requested', 'refunded'] as const
export type OrderState = (typeof ORDER_STATES)[number]

/** Records an acceptance once; accepting the same terms again keeps the first time. */
export async function insertAgreement(db: WriteTx, address: string, termsVersion: string, at: string): Promise<void> {
  await db
    .insertInto('service_agreements')
    .values({ address, terms_version: termsVersion, accepted_at: at })
    .onConflict((oc) => oc.columns(['address', 'terms_version']).doNothing())
    .execute()
}

export async function insertOrder(db: WriteTx, row: OrderRow): Promise<void> {
  await db.insertInto('service_orders').values(row).execute()
}

export async function lockOrder(db: WriteTx, id: string): Promise<OrderRow | undefined> {
  return lockRow(db, db.selectFrom('service_orders').selectAll().where('id', '=', id)).executeTakeFirst()
}

export async function updateOrder(db: WriteTx, id: string, changes: OrderChanges): Promise<void> {
  await db.updateTable('service_orders').set(changes).where('id', '=', id).execute()
}

/**
 * The settlement steps are conditional updates: each names the state it expects (awaiting payment,
 * a settlement in progress or not, the attempt it claimed), so of two instances racing on one order
 * exactly one moves it, and the other learns so from the returned false.
 */
export interface SettlementExpectation {
  settling: boolean
  attempts?: number
}

export async function updateSettlement(
  db: WriteTx,
  id: string,
  expect: SettlementExpectation,
  changes: OrderChanges,
): Promise<boolean> {
  let query = db
    .updateTable('service_orders')
    .set(changes)
    .where('id', '=', id)
    .where('state', '=', 'awaiting_payment')
    .where('settle_started_at', expect.settling ? 'is not' : 'is', null)
  if (expect.attempts !== undefined) query = query.where('settle_attempts', '=', expect.attempts)
  const result = await query.executeTakeFirst()
  return Number(result.numUpdatedRows) === 1
}
