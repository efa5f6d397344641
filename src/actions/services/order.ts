import { defineAction } from '../../core/action.ts'
import { iso } from '../../services/clock.ts'
import { ServiceError } from '../../services/errors.ts'
import { atomicAmount, catalogTerms } from '../../payments/catalog.ts'
import { AcceptInput, AgreementResult, OrderInput, PaymentRequiredBody } from '../../schemas/services.ts'
import { nextId } from '../../store/counters.ts'
import { insertAgreement, insertOrder, type OrderRow } from '../../store/orders/write.ts'
import { findAgreement } from '../../store/orders/read.ts'
import { requireSession, SESSION_FROM_COOKIE } from '../../services/wallet-sessions.ts'
import { findService, paymentRequiredAnswer, requirePayments } from './common.ts'

export const acceptAgreement = defineAction({
  name: 'accept_agreement',
  summary: 'Accept the paid-services terms (GET /api/services terms.version) for your wallet.',
  http: { method: 'POST', path: '/api/services' },
  auth: 'public',
  effect: 'write',
  requestFields: SESSION_FROM_COOKIE,
  input: AcceptInput,
  output: AgreementResult,
  errors: { payments_inactive: 403, session_invalid: 403, terms_outdated: 409 },
  examples: [(refs) => ({ session_token: refs.wallet.session, terms_version: refs.wallet.termsVersion })],
  handler: async (ctx, input) => {
    await requirePayments(ctx)
    const session = await requireSession(ctx, input.session_token)
    const { version } = catalogTerms(ctx.config.services)
    if (input.terms_version !== version) {
      throw new ServiceError('terms_outdated', `The current terms are version ${version}: read and accept those.`)
    }
    await insertAgreement(ctx.db, session.address, version, iso(ctx.now))
    const agreement = await findAgreement(ctx.db, session.address, version)
    return { terms_version: version, accepted_at: agreement?.accepted_at ?? iso(ctx.now) }
  },
})

export const order = defineAction({
  name: 'order',
  summary: 'Order a service: answers HTTP 402 with its x402 v2 PAYMENT-REQUIRED header (USDC on Base, exact amount).',
  description:
    'The requirement is fixed now and repeated byte for byte by every later pay without a payment for this order. The body is the same PaymentRequired plus order_id. Needs a wallet session and the current terms accepted.',
  http: { method: 'POST', path: '/api/services' },
  auth: 'public',
  effect: 'write',
  answers: { 402: 'the order was made; pay it with the PAYMENT-REQUIRED header it carries.' },
  requestFields: SESSION_FROM_COOKIE,
  input: OrderInput,
  output: PaymentRequiredBody,
  errors: { payments_inactive: 403, unknown_service: 400, session_invalid: 403, agreement_required: 403 },
  examples: [(refs) => ({ session_token: refs.wallet.session, service_id: 'review' })],
  handler: async (ctx, input) => {
    const payments = await requirePayments(ctx)
    const service = findService(ctx, input.service_id)
    const session = await requireSession(ctx, input.session_token)
    if (!(await findAgreement(ctx.db, session.address, catalogTerms(ctx.config.services).version))) {
      throw new ServiceError('agreement_required', 'Accept the current terms first (accept_agreement).')
    }
    const id = ctx.random.uuid()
    const required = await payments.requirementFor(service, id, ctx.services.baseUrl)
    const header = payments.encodeRequired(required)
    const row: OrderRow = {
      id,
      seq: await nextId(ctx.db, 'service_orders'),
      address: session.address,
      service_id: service.id,
      title: service.title,
      price_usdc: service.price_usdc,
      amount: required.accepts[0]?.amount ?? atomicAmount(service.price_usdc),
      payment_required: header,
      state: 'awaiting_payment',
      settle_started_at: null,
      settle_attempts: 0,
      payment_payload: null,
      payment_digest: null,
      payer: null,
      transaction_hash: null,
      payment_response: null,
      last_error: null,
      delivery: null,
      refund_reason: null,
      refund_note: null,
      created_at: iso(ctx.now),
      paid_at: null,
      delivered_at: null,
      acknowledged_at: null,
      refund_requested_at: null,
      refunded_at: null,
    }
    await insertOrder(ctx.db, row)
    return paymentRequiredAnswer(payments, row)
  },
})
