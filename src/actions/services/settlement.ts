import type { ActionContext } from '../../core/action.ts'
import { iso } from '../../services/clock.ts'
import { X402_NETWORK } from '../../payments/catalog.ts'
import type { Payments, PaymentPayload, PaymentRequirements, SettleResponse } from '../../payments/x402.ts'
import type { Db, WriteTx } from '../../db/database.ts'
import { updateSettlement, type OrderRow } from '../../store/orders/write.ts'
import { findOrder } from '../../store/orders/read.ts'
import { settlementPending } from './common.ts'

export type Settled = { kind: 'paid'; order: OrderRow } | { kind: 'failed'; reason: string; message: string }

/** The requirement an order was made with, read back from its stored PAYMENT-REQUIRED bytes. */
export function requirementOf(payments: Payments, order: OrderRow): PaymentRequirements {
  const requirement = payments.decodeRequired(order.payment_required).accepts[0]
  if (!requirement) throw new Error(`order ${order.id} has no payment requirement`)
  return requirement
}

/**
 * Asks the facilitator to settle a payment whose attempt is already recorded (settle_started_at),
 * then records the outcome. A lost or doubtful answer leaves the record in place and answers 409
 * settlement_pending: reconcile then asks the chain before anything is settled again.
 */
export async function settleRecorded(
  ctx: ActionContext<Db, WriteTx>,
  payments: Payments,
  order: OrderRow,
  payload: PaymentPayload,
  release: boolean,
): Promise<Settled> {
  const outcome = await payments.settle(payload, requirementOf(payments, order))
  if (outcome.kind === 'settled') {
    return { kind: 'paid', order: await markPaid(ctx, payments, order.id, outcome.response) }
  }
  if (outcome.kind === 'unknown' || !release) {
    await ctx.transaction((db) => noteError(db, order.id, outcome.reason))
    throw settlementPending()
  }
  await ctx.transaction((db) =>
    updateSettlement(db, order.id, { settling: true }, releasedChanges(`settlement failed: ${outcome.reason}`)),
  )
  return { kind: 'failed', reason: outcome.reason, message: outcome.message }
}

/** Records a settlement (from the facilitator, or found on chain); a concurrent recorder may have won. */
export async function markPaid(
  ctx: ActionContext<Db, WriteTx>,
  payments: Payments,
  orderId: string,
  response: SettleResponse,
): Promise<OrderRow> {
  return ctx.transaction(async (db) => {
    await updateSettlement(
      db,
      orderId,
      { settling: true },
      {
        state: 'paid',
        paid_at: iso(ctx.now),
        // The payer verification named stays unless the settlement names one.
        ...(response.payer ? { payer: response.payer } : {}),
        transaction_hash: response.transaction || null,
        payment_response: payments.encodeResponse({ ...response, network: X402_NETWORK }),
        settle_started_at: null,
        payment_payload: null,
        last_error: null,
      },
    )
    return (await findOrder(db, orderId)) as OrderRow
  })
}

/** A settlement that certainly moved nothing: the order awaits payment again, its payload forgotten. */
export function releasedChanges(error: string) {
  return { settle_started_at: null, payment_payload: null, payment_digest: null, last_error: error.slice(0, 500) }
}

async function noteError(db: WriteTx, orderId: string, error: string): Promise<void> {
  await updateSettlement(db, orderId, { settling: true }, { last_error: error.slice(0, 500) })
}
