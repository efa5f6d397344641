import { defineAction, type WriteContext } from '../../core/action.ts'
import { iso } from '../../services/clock.ts'
import { ServiceError } from '../../services/errors.ts'
import { catalogTerms } from '../../payments/catalog.ts'
import { LIMITS } from '../../schemas/common.ts'
import {
  MyCommerceInput,
  MyCommerceResult,
  OrderActionInput,
  OrderView,
  RefundRequestInput,
} from '../../schemas/services.ts'
import { lockOrder, updateOrder, type OrderChanges, type OrderRow } from '../../store/orders/write.ts'
import { findAgreement, ordersOf } from '../../store/orders/read.ts'
import { requireSession, SESSION_FROM_COOKIE } from '../../services/wallet-sessions.ts'
import { sessionOrder } from './common.ts'
import { orderView } from '../../services/orders.ts'

const ORDER_ERRORS = { session_invalid: 403, not_found: 400, order_not_yours: 403, state_conflict: 409 } as const

/** The buyer's order, locked, in one of the states the change applies to; 409 state_conflict otherwise. */
async function changeOwnOrder(
  ctx: WriteContext,
  input: { session_token: string; order_id: string },
  allowed: (order: OrderRow) => boolean,
  changes: (order: OrderRow) => OrderChanges,
) {
  await sessionOrder(ctx, input)
  const order = (await lockOrder(ctx.db, input.order_id)) as OrderRow
  if (!allowed(order)) {
    throw new ServiceError('state_conflict', `Order ${order.id} is ${order.state}; this does not apply to it now.`)
  }
  const next = changes(order)
  await updateOrder(ctx.db, order.id, next)
  return orderView({ ...order, ...next } as OrderRow)
}

export const acknowledge = defineAction({
  name: 'acknowledge',
  summary: 'Acknowledge that a delivered order was received (after that, no refund request).',
  http: { method: 'POST', path: '/api/services' },
  auth: 'public',
  effect: 'write',
  requestFields: SESSION_FROM_COOKIE,
  input: OrderActionInput('acknowledge'),
  output: OrderView,
  errors: ORDER_ERRORS,
  examples: [(refs) => ({ session_token: refs.wallet.session, order_id: refs.wallet.orders.delivered })],
  handler: (ctx, input) =>
    changeOwnOrder(
      ctx,
      input,
      (order) => order.state === 'delivered',
      (order) => ({ acknowledged_at: order.acknowledged_at ?? iso(ctx.now) }),
    ),
})

export const requestRefund = defineAction({
  name: 'request_refund',
  summary: 'Ask the operators to refund a paid or delivered order you have not acknowledged.',
  http: { method: 'POST', path: '/api/services' },
  auth: 'public',
  effect: 'write',
  trim: ['reason'],
  requestFields: SESSION_FROM_COOKIE,
  input: RefundRequestInput,
  output: OrderView,
  errors: ORDER_ERRORS,
  examples: [
    (refs) => ({
      session_token: refs.wallet.session,
      order_id: refs.wallet.orders.refundable,
      reason: 'not what I ordered',
    }),
  ],
  handler: (ctx, input) =>
    changeOwnOrder(
      ctx,
      input,
      (order) => (order.state === 'paid' || order.state === 'delivered') && order.acknowledged_at === null,
      () => ({ state: 'refund_requested', refund_reason: input.reason, refund_requested_at: iso(ctx.now) }),
    ),
})

export const myCommerce = defineAction({
  name: 'my_commerce',
  summary: "Your wallet's orders with their states, deliveries and refunds, and your acceptance of the terms.",
  http: { method: 'POST', path: '/api/services' },
  auth: 'public',
  effect: 'read',
  requestFields: SESSION_FROM_COOKIE,
  input: MyCommerceInput,
  output: MyCommerceResult,
  errors: { session_invalid: 403 },
  examples: [(refs) => ({ session_token: refs.wallet.session })],
  paging: [{ cursor: 'after', items: ['orders'], next: 'next_cursor', hasMore: 'has_more' }],
  handler: async (ctx, input) => {
    const session = await requireSession(ctx, input.session_token)
    const agreement = await findAgreement(ctx.db, session.address, catalogTerms(ctx.config.services).version)
    const page = await ordersOf(ctx.db, session.address, {
      after: input.after ?? 0,
      limit: input.limit ?? LIMITS.page_default,
    })
    return {
      address: session.address,
      agreement: agreement ? { terms_version: agreement.terms_version, accepted_at: agreement.accepted_at } : null,
      orders: page.items.map(orderView),
      next_cursor: page.next,
      has_more: page.hasMore,
    }
  },
})
