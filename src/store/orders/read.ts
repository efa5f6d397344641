import { type OrderRow, type OrderState } from './write.ts'
import type { Db } from '../../db/database.ts'
import { keysetPage, type Page, type PageRequest } from '../pager.ts'

export async function findAgreement(db: Db, address: string, termsVersion: string) {
  return db
    .selectFrom('service_agreements')
    .selectAll()
    .where('address', '=', address)
    .where('terms_version', '=', termsVersion)
    .executeTakeFirst()
}

export async function findOrder(db: Db, id: string): Promise<OrderRow | undefined> {
  return db.selectFrom('service_orders').selectAll().where('id', '=', id).executeTakeFirst()
}

export async function ordersOf(db: Db, address: string, request: PageRequest): Promise<Page<OrderRow>> {
  return keysetPage(
    db.selectFrom('service_orders').selectAll().where('address', '=', address),
    'seq',
    request,
    (row) => row,
    (row) => Number(row.seq),
  )
}

export async function listOrders(
  db: Db,
  request: PageRequest & { state?: OrderState | undefined },
): Promise<Page<OrderRow>> {
  let query = db.selectFrom('service_orders').selectAll()
  if (request.state) query = query.where('state', '=', request.state)
  return keysetPage(
    query,
    'seq',
    request,
    (row) => row,
    (row) => Number(row.seq),
  )
}
