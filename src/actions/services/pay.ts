import { defineAction, type ActionContext } from '../../core/action.ts'
import { iso } from '../../services/clock.ts'
import { ServiceError } from '../../services/errors.ts'
import { PayInput, PayResult } from '../../schemas/services.ts'
import { updateSettlement, type OrderRow } from '../../store/orders/write.ts'
import { findOrder } from '../../store/orders/read.ts'
import { SESSION_COOKIE } from '../../services/wallet-sessions.ts'
import { paidAnswer, paymentRequiredAnswer, requirePayments, sessionOrder, settlementPending } from './common.ts'
import { requirementOf, settleRecorded } from './settlement.ts'

const MISMATCH = {
  reason: 'requirement_mismatch',
  message: "The payment does not name this order's requirement (scheme, network, asset, amount and payee).",
}

/** A pay for an order that is already paid: the same payment is answered again, another is refused. */
function answerSettled(ctx: ActionContext, order: OrderRow, header: string | undefined) {
  if (header === undefined || (order.payment_digest && ctx.services.secrets.matches(header, order.payment_digest))) {
    return paidAnswer(order)
  }
  throw new ServiceError('state_conflict', `Order ${order.id} is ${order.state}; the payment you sent was not used.`)
}

export const pay = defineAction({
  name: 'pay',
  summary: 'Pay an order with the x402 PAYMENT-SIGNATURE header: verified and settled through the facilitator.',
  description:
    "Success: 200 with the PAYMENT-RESPONSE header. Without a payment, or with one the facilitator refuses: HTTP 402 with the order's PAYMENT-REQUIRED header, byte for byte as at order time. If the settlement's answer is lost: 409 settlement_pending, then reconcile.",
  http: { method: 'POST', path: '/api/services' },
  auth: 'public',
  effect: 'write',
  callsOut: true,
  answers: { 402: "no payment, or a refused one: the order's payment requirement again, byte for byte." },
  requestFields: {
    headers: { 'payment-signature': 'payment_signature' },
    cookies: { [SESSION_COOKIE]: 'session_token' },
  },
  input: PayInput,
  output: PayResult,
  errors: {
    payments_inactive: 403,
    session_invalid: 403,
    not_found: 400,
    order_not_yours: 403,
    payment_invalid: 400,
    state_conflict: 409,
    settlement_pending: 409,
    facilitator_unavailable: 503,
  },
  examples: [
    // Without a PAYMENT-SIGNATURE: the order's 402 requirement again (a successful answer).
    (refs) => ({ session_token: refs.wallet.session, order_id: refs.wallet.orders.awaiting }),
  ],
  handler: async (ctx, input) => {
    const payments = await requirePayments(ctx)
    const order = await sessionOrder(ctx, input)
    const header = input.payment_signature
    if (order.state !== 'awaiting_payment') return answerSettled(ctx, order, header)
    if (order.settle_started_at !== null) throw settlementPending()
    if (header === undefined) return paymentRequiredAnswer(payments, order)
    const { payload } = payments.decodePayment(header)
    const requirement = requirementOf(payments, order)
    if (!payments.matches(requirement, payload)) return paymentRequiredAnswer(payments, order, MISMATCH)
    const verified = await payments.verify(payload, requirement)
    if (!verified.valid) {
      const message = verified.message || 'The facilitator refused the payment.'
      return paymentRequiredAnswer(payments, order, { reason: verified.reason, message })
    }
    // The attempt is recorded before the facilitator is asked to settle: if its answer is lost, the
    // order shows settlement_pending and reconcile asks the chain before settling anything again.
    const attempt = { ...order, settle_attempts: order.settle_attempts + 1 }
    const claimed = await ctx.transaction((db) =>
      updateSettlement(
        db,
        order.id,
        { settling: false },
        {
          settle_started_at: iso(ctx.now),
          settle_attempts: attempt.settle_attempts,
          payment_payload: JSON.stringify(payload),
          payment_digest: ctx.services.secrets.digest(header),
          payer: verified.payer,
          last_error: null,
        },
      ),
    )
    if (!claimed) throw settlementPending()
    const settled = await settleRecorded(ctx, payments, attempt, payload, true)
    if (settled.kind === 'paid') return paidAnswer(settled.order)
    const released = (await findOrder(ctx.db, order.id)) as OrderRow
    return paymentRequiredAnswer(payments, released, { reason: settled.reason, message: settled.message })
  },
})
