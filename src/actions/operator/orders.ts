import { iso } from '../../services/clock.ts'
import { ServiceError } from '../../services/errors.ts'
import { LIMITS } from '../../schemas/common.ts'
import { listPaging, pagedResult } from '../../schemas/paging.ts'
import { DeliverInput, ListOrdersInput, OperatorOrder, OrderList, RefundOrderInput } from '../../schemas/services.ts'
import { lockOrder, updateOrder, type OrderChanges, type OrderRow } from '../../store/orders/write.ts'
import { listOrders } from '../../store/orders/read.ts'
import type { WriteContext } from '../../core/action.ts'
import { orderView } from '../../services/orders.ts'
import { operatorAction } from '../../core/operator-action.ts'

/** The operators' view: the buyer's wallet, payer and settlement trail; never the payment payload. */
function operatorOrder(row: OrderRow) {
  return {
    ...orderView(row),
    address: row.address,
    payer: row.payer,
    settle_attempts: Number(row.settle_attempts),
    last_error: row.last_error,
    refund_note: row.refund_note,
  }
}

async function moveOrder(ctx: WriteContext, id: string, from: readonly string[], changes: OrderChanges) {
  const order = await lockOrder(ctx.db, id)
  if (!order) throw new ServiceError('not_found', `No order ${id}.`)
  if (!from.includes(order.state)) {
    throw new ServiceError('state_conflict', `Order ${id} is ${order.state}; expected ${from.join(' or ')}.`)
  }
  await updateOrder(ctx.db, id, changes)
  return operatorOrder({ ...order, ...changes } as OrderRow)
}

export const listOrdersAction = operatorAction({
  name: 'list_orders',
  effect: 'read',
  summary: 'Operator: paid-service orders, oldest first, optionally by state.',
  input: ListOrdersInput,
  output: OrderList,
  errors: {},
  examples: [(refs) => ({ operator_key: refs.operatorKey })],
  paging: listPaging('orders'),
  handler: async (ctx, input) => {
    const page = await listOrders(ctx.db, {
      state: input.state,
      after: input.after ?? 0,
      limit: input.limit ?? LIMITS.page_default,
    })
    return pagedResult('orders', { ...page, items: page.items.map(operatorOrder) })
  },
})

export const deliverOrder = operatorAction({
  name: 'deliver_order',
  summary: 'Operator: deliver a paid order (the buyer reads the delivery with my_commerce).',
  input: DeliverInput,
  output: OperatorOrder,
  errors: { not_found: 400, state_conflict: 409 },
  examples: [(refs) => ({ operator_key: refs.operatorKey, order_id: refs.wallet.orders.paid, delivery: 'the review' })],
  handler: (ctx, input) =>
    moveOrder(ctx, input.order_id, ['paid'], {
      state: 'delivered',
      delivery: input.delivery,
      delivered_at: iso(ctx.now),
    }),
})

export const refundOrder = operatorAction({
  name: 'refund_order',
  summary: 'Operator: record that a paid order was refunded (the refund itself is sent outside the service).',
  input: RefundOrderInput,
  output: OperatorOrder,
  errors: { not_found: 400, state_conflict: 409 },
  examples: [
    (refs) => ({ operator_key: refs.operatorKey, order_id: refs.wallet.orders.operatorRefund, note: 'refunded' }),
  ],
  handler: (ctx, input) =>
    moveOrder(ctx, input.order_id, ['paid', 'delivered', 'refund_requested'], {
      state: 'refunded',
      refund_note: input.note ?? null,
      refunded_at: iso(ctx.now),
    }),
})
