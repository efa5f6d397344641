import type { OrderRow, OrderState } from '../store/orders/write.ts'

/** An order as its buyer reads it; the operators' view adds the wallet and the settlement trail. */
export function orderView(row: OrderRow) {
  return {
    order_id: row.id,
    seq: Number(row.seq),
    service_id: row.service_id,
    title: row.title,
    price_usdc: row.price_usdc,
    amount: row.amount,
    state: row.state as OrderState,
    settlement_pending: row.settle_started_at !== null,
    transaction: row.transaction_hash,
    created_at: row.created_at,
    paid_at: row.paid_at,
    delivered_at: row.delivered_at,
    delivery: row.delivery,
    acknowledged_at: row.acknowledged_at,
    refund_requested_at: row.refund_requested_at,
    refund_reason: row.refund_reason,
    refunded_at: row.refunded_at,
  }
}
