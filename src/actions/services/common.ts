import type { ActionContext } from '../../core/action.ts'
import { ServiceError } from '../../services/errors.ts'
import { withHttpAnswer } from '../../services/http-answer.ts'
import { atomicAmount, USDC_BASE, X402_NETWORK, type CatalogEntry } from '../../payments/catalog.ts'
import type { Payments } from '../../payments/x402.ts'
import type { Db } from '../../db/database.ts'
import { type OrderRow, type OrderState } from '../../store/orders/write.ts'
import { findOrder } from '../../store/orders/read.ts'
import { requireSession } from '../../services/wallet-sessions.ts'

/** Payments are active when the operators configured a catalog (the config then requires payee and facilitator). */
export async function requirePayments(ctx: ActionContext): Promise<Payments> {
  const payments = await ctx.services.wallet.payments()
  if (!payments) throw new ServiceError('payments_inactive', 'Paid services are not active on this server.')
  return payments
}

export function paymentsInfo(ctx: ActionContext) {
  const active = ctx.config.services.length > 0
  return {
    active,
    x402_version: 2 as const,
    scheme: 'exact' as const,
    network: X402_NETWORK,
    asset: USDC_BASE,
    pay_to: active ? ctx.config.x402PayTo : null,
  }
}

export const serviceView = (service: CatalogEntry) => ({ ...service, amount: atomicAmount(service.price_usdc) })

export function findService(ctx: ActionContext, id: string): CatalogEntry {
  const service = ctx.config.services.find((s) => s.id === id)
  if (!service) throw new ServiceError('unknown_service', `No service "${id.slice(0, 64)}": see GET /api/services.`)
  return service
}

/** The order named in a request, of the wallet whose live session the request carries. */
export async function sessionOrder(
  ctx: ActionContext,
  input: { session_token: string; order_id: string },
): Promise<OrderRow> {
  const session = await requireSession(ctx, input.session_token)
  return ownOrder(ctx.db, input.order_id, session.address)
}

/** An order of the signed-in wallet; orders belong to the wallet, across its sessions. */
export async function ownOrder(db: Db, orderId: string, address: string): Promise<OrderRow> {
  const order = await findOrder(db, orderId)
  if (!order) throw new ServiceError('not_found', `No order ${orderId}.`)
  if (order.address !== address) throw new ServiceError('order_not_yours', 'This order belongs to another wallet.')
  return order
}

export function settlementPending(): ServiceError {
  return new ServiceError(
    'settlement_pending',
    'A settlement of this order was sent and its outcome is not known yet: call reconcile. Nothing is charged twice.',
    { retryAfterSeconds: 10 },
  )
}

/**
 * HTTP 402 with the order's PAYMENT-REQUIRED header exactly as stored at order time, and the same
 * PaymentRequired (decoded from those bytes) plus the order in the body.
 */
export function paymentRequiredAnswer(
  payments: Payments,
  order: OrderRow,
  paymentError?: { reason: string; message: string },
) {
  const body = {
    order_id: order.id,
    state: 'awaiting_payment' as const,
    ...payments.decodeRequired(order.payment_required),
    ...(paymentError ? { payment_error: paymentError } : {}),
  }
  return withHttpAnswer(body as typeof body & { x402Version: 2 }, {
    status: 402,
    headers: { 'PAYMENT-REQUIRED': order.payment_required, 'cache-control': 'no-store' },
  })
}

/** A paid order: 200 with the stored PAYMENT-RESPONSE header (repeated to a retried pay). */
export function paidAnswer(order: OrderRow) {
  const body = {
    order_id: order.id,
    state: order.state as OrderState,
    transaction: order.transaction_hash,
    network: X402_NETWORK,
    payer: order.payer,
    paid_at: order.paid_at ?? order.created_at,
  }
  return order.payment_response
    ? withHttpAnswer(body, { headers: { 'PAYMENT-RESPONSE': order.payment_response } })
    : body
}
