import { defineAction, type ActionContext } from '../../core/action.ts'
import { ServiceError } from '../../services/errors.ts'
import { withHttpAnswer } from '../../services/http-answer.ts'
import { authorizationOf } from '../../payments/authorization.ts'
import { X402_NETWORK } from '../../payments/catalog.ts'
import type { PaymentPayload } from '../../payments/x402.ts'
import { OrderActionInput, ReconcileResult, type RECONCILE_OUTCOMES } from '../../schemas/services.ts'
import { updateSettlement, type OrderRow } from '../../store/orders/write.ts'
import { findOrder } from '../../store/orders/read.ts'
import { SESSION_FROM_COOKIE } from '../../services/wallet-sessions.ts'
import { requirePayments, sessionOrder, settlementPending } from './common.ts'
import { orderView } from '../../services/orders.ts'
import { markPaid, releasedChanges, settleRecorded } from './settlement.ts'

type Outcome = (typeof RECONCILE_OUTCOMES)[number]

function answer(outcome: Outcome, order: OrderRow) {
  const result = { outcome, order: orderView(order) }
  return order.payment_response
    ? withHttpAnswer(result, { headers: { 'PAYMENT-RESPONSE': order.payment_response } })
    : result
}

async function chainOf(ctx: ActionContext) {
  const chain = await ctx.services.wallet.chain()
  if (!chain) throw new ServiceError('wallet_not_configured', 'No JSON-RPC node is configured to ask the chain.')
  return chain
}

export const reconcile = defineAction({
  name: 'reconcile',
  summary: 'Settle the question of an interrupted payment: never charged twice, never lost.',
  description:
    'When a settlement was sent and its answer lost, asks the chain whether the payment went through (its EIP-3009 authorization used) before settling again; a payment whose authorization expired unused is released and the order awaits payment again.',
  http: { method: 'POST', path: '/api/services' },
  auth: 'public',
  effect: 'write',
  callsOut: true,
  requestFields: SESSION_FROM_COOKIE,
  input: OrderActionInput('reconcile'),
  output: ReconcileResult,
  errors: {
    payments_inactive: 403,
    session_invalid: 403,
    not_found: 400,
    order_not_yours: 403,
    wallet_not_configured: 503,
    chain_unavailable: 503,
    settlement_pending: 409,
  },
  examples: [(refs) => ({ session_token: refs.wallet.session, order_id: refs.wallet.orders.awaiting })],
  handler: async (ctx, input) => {
    const payments = await requirePayments(ctx)
    const order = await sessionOrder(ctx, input)
    if (order.state !== 'awaiting_payment' || order.settle_started_at === null || order.payment_payload === null) {
      return answer('nothing_pending', order)
    }
    const payload = JSON.parse(order.payment_payload) as PaymentPayload
    const authorization = authorizationOf(payload)
    const onChain = await (await chainOf(ctx)).authorizationUsed(authorization.from, authorization.nonce)
    if (onChain.used) {
      const response = {
        success: true,
        transaction: onChain.transaction ?? '',
        network: X402_NETWORK,
        payer: authorization.from,
      }
      return answer('confirmed_on_chain', await markPaid(ctx, payments, order.id, response))
    }
    if (BigInt(authorization.validBefore) <= BigInt(Math.floor(ctx.now.getTime() / 1000))) {
      // Unused and no longer usable: nothing moved and nothing can, so the order is payable again.
      await ctx.transaction((db) =>
        updateSettlement(db, order.id, { settling: true }, releasedChanges('expired unused')),
      )
      return answer('released', (await findOrder(ctx.db, order.id)) as OrderRow)
    }
    // Not on chain and still valid: settle again. The chain executes one EIP-3009 authorization at
    // most once, so even a first settlement still in flight cannot make this a second charge.
    const attempt = { ...order, settle_attempts: order.settle_attempts + 1 }
    const claimed = await ctx.transaction((db) =>
      updateSettlement(
        db,
        order.id,
        { settling: true, attempts: order.settle_attempts },
        {
          settle_attempts: attempt.settle_attempts,
        },
      ),
    )
    if (!claimed) throw settlementPending()
    const settled = await settleRecorded(ctx, payments, attempt, payload, false)
    return answer('settled_now', settled.kind === 'paid' ? settled.order : attempt)
  },
})
