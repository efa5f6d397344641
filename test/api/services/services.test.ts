import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { decodePaymentRequiredHeader, decodePaymentResponseHeader, decodePaymentSignatureHeader } from '@x402/core/http'
import { sharedDatabase, startServer } from '../../support/harness.ts'
import { op } from '../../support/operator.ts'
import { storedState } from '../../support/snapshot.ts'
import {
  newAccount,
  PAY_TO,
  paymentHeader,
  placeOrder,
  services,
  signIn,
  startWalletFakes,
  walletConfig,
} from '../../support/wallet.ts'
import { useWalletServer } from '../../support/servers.ts'
import { codeOf } from '../../support/errors.ts'

interface Order {
  order_id: string
  state: string
  settlement_pending: boolean
  transaction: string | null
  delivery: string | null
}
interface Commerce {
  orders: Order[]
  agreement: { terms_version: string } | null
}

const USDC = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913'

describe('paid services over x402', () => {
  const { t, fakes } = useWalletServer()

  const ordersOf = async (session: string) =>
    (await services<Commerce>(t, 'my_commerce', { session_token: session })).body.orders
  const orderOf = async (session: string, orderId: string) =>
    (await ordersOf(session)).find((o) => o.order_id === orderId) as Order

  test('GET /api/services: active payments in USDC on Base, terms and the catalog', async () => {
    const reply = await t.get<Record<string, unknown>>('/api/services')
    assert.equal(reply.status, 200)
    assert.deepEqual(reply.body.payments, {
      active: true,
      x402_version: 2,
      scheme: 'exact',
      network: 'eip155:8453',
      asset: USDC,
      pay_to: PAY_TO,
    })
    const terms = reply.body.terms as { version: string; text: string }
    assert.match(terms.version, /^2026-11-22\.[0-9a-f]{12}$/)
    assert.match(terms.text, /never need a payment/)
    const [review, tiny] = reply.body.services as Array<{ id: string; amount: string; price_usdc: string }>
    assert.deepEqual([review?.id, review?.price_usdc, review?.amount], ['review', '0.25', '250000'])
    assert.deepEqual([tiny?.amount], ['1'])
  })

  test('quote prices one service; an unknown one is 400', async () => {
    const reply = await services<{ service: { amount: string }; terms_version: string }>(t, 'quote', {
      service_id: 'review',
    })
    assert.equal(reply.status, 200)
    assert.equal(reply.body.service.amount, '250000')
    const unknown = await services(t, 'quote', { service_id: 'nope' })
    assert.equal(unknown.status, 400)
    assert.equal(codeOf(unknown.body), 'unknown_service')
  })

  test('ordering needs a session and the current terms accepted', async () => {
    const session = await signIn(t)
    const before = await storedState(t.server.database.db)
    const noAgreement = await services(t, 'order', { session_token: session, service_id: 'review' })
    assert.equal(noAgreement.status, 403)
    assert.equal(codeOf(noAgreement.body), 'agreement_required')
    const stale = await services(t, 'accept_agreement', { session_token: session, terms_version: '2020-01-01.x' })
    assert.equal(stale.status, 409)
    assert.equal(codeOf(stale.body), 'terms_outdated')
    const noSession = await services(t, 'order', { session_token: 'wss_x', service_id: 'review' })
    assert.equal(codeOf(noSession.body), 'session_invalid')
    const unknown = await services(t, 'order', { session_token: session, service_id: 'nope' })
    assert.equal(codeOf(unknown.body), 'unknown_service')
    assert.equal(await storedState(t.server.database.db), before, 'refusals store nothing')
  })

  test('order answers 402 with an x402 v2 PAYMENT-REQUIRED header, the same bytes on every later read', async () => {
    const account = newAccount()
    const { session, orderId, reply, required } = await placeOrder(t, account)
    assert.equal(reply.status, 402)
    assert.equal(reply.headers.get('cache-control'), 'no-store')
    assert.match(reply.headers.get('access-control-expose-headers') ?? '', /PAYMENT-REQUIRED/)
    const decoded = decodePaymentRequiredHeader(required)
    assert.equal(decoded.x402Version, 2)
    assert.equal(decoded.accepts.length, 1)
    assert.deepEqual(decoded.accepts[0], {
      scheme: 'exact',
      network: 'eip155:8453',
      amount: '250000',
      asset: USDC,
      payTo: PAY_TO,
      maxTimeoutSeconds: 300,
      extra: { name: 'USD Coin', version: '2' },
    })
    assert.equal(decoded.resource.url, `${t.url}/api/services`)
    assert.deepEqual(
      reply.body,
      { order_id: orderId, state: 'awaiting_payment', ...decoded },
      'the body is the same object',
    )
    for (let i = 0; i < 3; i++) {
      t.clock.advance(60)
      const again = await services(t, 'pay', { session_token: session, order_id: orderId })
      assert.equal(again.status, 402)
      assert.equal(again.headers.get('payment-required'), required, 'byte for byte')
      assert.deepEqual(again.body, reply.body)
    }
    const view = await orderOf(session, orderId)
    assert.deepEqual([view.state, view.settlement_pending], ['awaiting_payment', false])
  })

  test('pay settles through the facilitator: 200 with PAYMENT-RESPONSE; a retry is answered again, not charged', async () => {
    const account = newAccount()
    const { session, orderId, required } = await placeOrder(t, account)
    const header = await paymentHeader(account, required)
    assert.equal(decodePaymentSignatureHeader(header).payload.signature !== undefined, true)
    const settles = fakes.chain.calls.settled
    const paid = await services<Order & { payer: string }>(
      t,
      'pay',
      { session_token: session, order_id: orderId },
      { 'payment-signature': header },
    )
    assert.equal(paid.status, 200, JSON.stringify(paid.body))
    const response = decodePaymentResponseHeader(paid.headers.get('payment-response') as string)
    assert.equal(response.success, true)
    assert.equal(response.network, 'eip155:8453')
    assert.equal(response.transaction, paid.body.transaction)
    assert.equal(paid.body.payer, account.address)
    assert.equal(fakes.chain.calls.settled, settles + 1)

    const retry = await services(
      t,
      'pay',
      { session_token: session, order_id: orderId },
      { 'payment-signature': header },
    )
    assert.equal(retry.status, 200)
    assert.equal(retry.headers.get('payment-response'), paid.headers.get('payment-response'))
    assert.equal(fakes.chain.calls.settled, settles + 1, 'not settled twice')
    const other = await paymentHeader(account, required)
    const conflict = await services(
      t,
      'pay',
      { session_token: session, order_id: orderId },
      { 'payment-signature': other },
    )
    assert.equal(conflict.status, 409)
    assert.equal(codeOf(conflict.body), 'state_conflict')
    assert.deepEqual((await orderOf(session, orderId)).state, 'paid')
    // The field form (MCP, clients that cannot set headers) is the same; both differing is refused.
    const both = await services(
      t,
      'pay',
      { session_token: session, order_id: orderId, payment_signature: other },
      {
        'payment-signature': header,
      },
    )
    assert.equal(both.status, 400)
  })

  test('a refused payment answers 402 with the stored requirement and a reason; nothing changes', async () => {
    const account = newAccount()
    const { session, orderId, required } = await placeOrder(t, account)
    const tiny = await placeOrder(t, account, 'tiny')
    const before = await storedState(t.server.database.db)
    // A payment made for another order's requirement (another amount).
    const mismatch = await services<{ payment_error: { reason: string } }>(
      t,
      'pay',
      { session_token: session, order_id: orderId },
      { 'payment-signature': await paymentHeader(account, tiny.required) },
    )
    assert.equal(mismatch.status, 402)
    assert.equal(mismatch.headers.get('payment-required'), required)
    assert.equal(mismatch.body.payment_error.reason, 'requirement_mismatch')
    // A payment whose signature the facilitator rejects.
    const payload = decodePaymentSignatureHeader(await paymentHeader(account, required))
    const forged = { ...payload, payload: { ...payload.payload, signature: `0x${'11'.repeat(65)}` } }
    const header = Buffer.from(JSON.stringify(forged)).toString('base64')
    const rejected = await services<{ payment_error: { reason: string } }>(
      t,
      'pay',
      { session_token: session, order_id: orderId },
      { 'payment-signature': header },
    )
    assert.equal(rejected.status, 402)
    assert.equal(rejected.headers.get('payment-required'), required)
    assert.equal(rejected.body.payment_error.reason, 'invalid_exact_evm_payload_signature')
    const garbage = await services(
      t,
      'pay',
      { session_token: session, order_id: orderId },
      { 'payment-signature': 'x' },
    )
    assert.equal(garbage.status, 400)
    assert.equal(codeOf(garbage.body), 'payment_invalid')
    assert.equal(await storedState(t.server.database.db), before)
  })

  test('a facilitator that does not answer verify: 503 with Retry-After, nothing recorded', async () => {
    const account = newAccount()
    const { session, orderId, required } = await placeOrder(t, account)
    const header = await paymentHeader(account, required)
    const before = await storedState(t.server.database.db)
    fakes.chain.verifyHang = true
    const started = Date.now()
    const reply = await services(
      t,
      'pay',
      { session_token: session, order_id: orderId },
      { 'payment-signature': header },
    )
    fakes.chain.verifyHang = false
    assert.equal(reply.status, 503)
    assert.equal(codeOf(reply.body), 'facilitator_unavailable')
    assert.equal(reply.headers.get('retry-after'), '30')
    assert.ok(Date.now() - started < 3000, 'answered within the time limit')
    assert.equal(await storedState(t.server.database.db), before)
    const paid = await services(
      t,
      'pay',
      { session_token: session, order_id: orderId },
      { 'payment-signature': header },
    )
    assert.equal(paid.status, 200, 'the same payment goes through once the facilitator answers')
  })

  test('a settlement the facilitator refuses leaves the order payable; a later payment settles', async () => {
    const account = newAccount()
    const { session, orderId, required } = await placeOrder(t, account)
    fakes.chain.settleMode = 'fail'
    const failed = await services<{ payment_error: { reason: string } }>(
      t,
      'pay',
      { session_token: session, order_id: orderId },
      { 'payment-signature': await paymentHeader(account, required) },
    )
    fakes.chain.settleMode = 'ok'
    assert.equal(failed.status, 402)
    assert.equal(failed.headers.get('payment-required'), required)
    assert.equal(failed.body.payment_error.reason, 'insufficient_funds')
    const view = await orderOf(session, orderId)
    assert.deepEqual([view.state, view.settlement_pending], ['awaiting_payment', false])
    const paid = await services(
      t,
      'pay',
      { session_token: session, order_id: orderId },
      {
        'payment-signature': await paymentHeader(account, required),
      },
    )
    assert.equal(paid.status, 200)
  })

  test('settled but the answer lost: settlement_pending, then reconcile finds it on chain, charged once', async () => {
    const account = newAccount()
    const { session, orderId, required } = await placeOrder(t, account)
    const header = await paymentHeader(account, required)
    const settled = fakes.chain.calls.settled
    fakes.chain.settleMode = 'lose_answer'
    const lost = await services(
      t,
      'pay',
      { session_token: session, order_id: orderId },
      { 'payment-signature': header },
    )
    fakes.chain.settleMode = 'ok'
    assert.equal(lost.status, 409, JSON.stringify(lost.body))
    assert.equal(codeOf(lost.body), 'settlement_pending')
    assert.ok(Number(lost.headers.get('retry-after')) > 0)
    assert.equal(fakes.chain.calls.settled, settled + 1, 'the chain moved the funds')
    const pending = await orderOf(session, orderId)
    assert.deepEqual([pending.state, pending.settlement_pending], ['awaiting_payment', true])
    // Paying again while in doubt never sends a second settlement.
    const again = await services(
      t,
      'pay',
      { session_token: session, order_id: orderId },
      { 'payment-signature': header },
    )
    assert.equal(codeOf(again.body), 'settlement_pending')

    const settleCalls = fakes.chain.calls.settle
    const reconciled = await services<{ outcome: string; order: Order }>(t, 'reconcile', {
      session_token: session,
      order_id: orderId,
    })
    assert.equal(reconciled.status, 200, JSON.stringify(reconciled.body))
    assert.equal(reconciled.body.outcome, 'confirmed_on_chain')
    assert.equal(reconciled.body.order.state, 'paid')
    const key = fakes.chain.authorizationKey(account.address, decodeAuthorization(header).nonce)
    assert.equal(reconciled.body.order.transaction, fakes.chain.authorizations.get(key))
    assert.equal(fakes.chain.calls.settle, settleCalls, 'reconcile asked the chain, not the facilitator')
    assert.equal(decodePaymentResponseHeader(reconciled.headers.get('payment-response') as string).success, true)
    const twice = await services<{ outcome: string }>(t, 'reconcile', { session_token: session, order_id: orderId })
    assert.equal(twice.body.outcome, 'nothing_pending')
    assert.equal(fakes.chain.calls.settled, settled + 1, 'charged exactly once')
  })

  test('interrupted before reaching the chain: reconcile settles it once', async () => {
    const account = newAccount()
    const { session, orderId, required } = await placeOrder(t, account)
    const header = await paymentHeader(account, required)
    fakes.chain.settleMode = 'hang'
    const lost = await services(
      t,
      'pay',
      { session_token: session, order_id: orderId },
      { 'payment-signature': header },
    )
    fakes.chain.settleMode = 'ok'
    assert.equal(codeOf(lost.body), 'settlement_pending')
    const settled = fakes.chain.calls.settled
    const replies = await Promise.all(
      Array.from({ length: 4 }, () =>
        services<{ outcome: string; order: Order }>(t, 'reconcile', { session_token: session, order_id: orderId }),
      ),
    )
    const outcomes = replies.map((r) => (r.status === 200 ? r.body.outcome : codeOf(r.body)))
    assert.equal(outcomes.filter((o) => o === 'settled_now').length, 1, outcomes.join(','))
    assert.equal(fakes.chain.calls.settled, settled + 1, 'settled exactly once')
    assert.equal((await orderOf(session, orderId)).state, 'paid')
  })

  test('interrupted and the authorization expired unused: reconcile releases the order to be paid again', async () => {
    const account = newAccount()
    const { orderId, required } = await placeOrder(t, account)
    let session = await signIn(t, account)
    const header = await paymentHeader(account, required)
    fakes.chain.settleMode = 'hang'
    await services(t, 'pay', { session_token: session, order_id: orderId }, { 'payment-signature': header })
    fakes.chain.settleMode = 'ok'
    const { validBefore } = decodeAuthorization(header)
    t.clock.set(new Date((Number(validBefore) + 1) * 1000))
    session = await signIn(t, account)
    const settled = fakes.chain.calls.settled
    const released = await services<{ outcome: string; order: Order }>(t, 'reconcile', {
      session_token: session,
      order_id: orderId,
    })
    assert.equal(released.body.outcome, 'released')
    assert.deepEqual([released.body.order.state, released.body.order.settlement_pending], ['awaiting_payment', false])
    assert.equal(fakes.chain.calls.settled, settled)
    const paid = await services(
      t,
      'pay',
      { session_token: session, order_id: orderId },
      {
        'payment-signature': await paymentHeader(account, required),
      },
    )
    assert.equal(paid.status, 200)
  })

  test("another wallet's order is 403; an unknown order 400", async () => {
    const { orderId } = await placeOrder(t, newAccount())
    const stranger = await signIn(t)
    for (const action of ['pay', 'reconcile', 'acknowledge']) {
      const reply = await services(t, action, { session_token: stranger, order_id: orderId })
      assert.equal(reply.status, 403, action)
      assert.equal(codeOf(reply.body), 'order_not_yours')
    }
    const unknown = await services(t, 'pay', { session_token: stranger, order_id: crypto.randomUUID() })
    assert.equal(unknown.status, 400)
    assert.equal(codeOf(unknown.body), 'not_found')
  })

  test('after the sale: operators deliver and refund; buyers acknowledge or ask for a refund', async () => {
    const account = newAccount()
    const { session, orderId, required } = await placeOrder(t, account)
    const early = await op(t, 'deliver_order', { order_id: orderId, delivery: 'too early' })
    assert.equal(codeOf(early.body), 'state_conflict')
    await services(
      t,
      'pay',
      { session_token: session, order_id: orderId },
      {
        'payment-signature': await paymentHeader(account, required),
      },
    )
    const notYet = await services(t, 'acknowledge', { session_token: session, order_id: orderId })
    assert.equal(codeOf(notYet.body), 'state_conflict')
    const delivered = await op<Order & { address: string }>(t, 'deliver_order', {
      order_id: orderId,
      delivery: 'Your review: thorough.',
    })
    assert.equal(delivered.status, 200)
    assert.equal(delivered.body.address, account.address, 'operators see the buyer')
    assert.equal((await orderOf(session, orderId)).delivery, 'Your review: thorough.')
    const refund = await services<Order>(t, 'request_refund', {
      session_token: session,
      order_id: orderId,
      reason: 'not thorough',
    })
    assert.equal(refund.body.state, 'refund_requested')
    const refunded = await op<Order>(t, 'refund_order', { order_id: orderId, note: 'sent back' })
    assert.equal(refunded.body.state, 'refunded')
    assert.equal(codeOf((await op(t, 'refund_order', { order_id: orderId })).body), 'state_conflict')
    const listed = await op<{ orders: Array<{ order_id: string; state: string }> }>(t, 'list_orders', {
      state: 'refunded',
    })
    assert.ok(listed.body.orders.some((o) => o.order_id === orderId))
    const audit = await op<{ entries: Array<{ action: string; target: string }> }>(t, 'list_audit_log', { limit: 200 })
    assert.ok(audit.body.entries.some((e) => e.action === 'refund_order' && e.target === `order:${orderId}`))

    const second = await placeOrder(t, account)
    await services(
      t,
      'pay',
      { session_token: second.session, order_id: second.orderId },
      {
        'payment-signature': await paymentHeader(account, second.required),
      },
    )
    await op(t, 'deliver_order', { order_id: second.orderId, delivery: 'done' })
    const ack = await services<Order & { acknowledged_at: string }>(t, 'acknowledge', {
      session_token: second.session,
      order_id: second.orderId,
    })
    assert.equal(ack.body.acknowledged_at, t.clock.now().toISOString())
    const late = await services(t, 'request_refund', {
      session_token: second.session,
      order_id: second.orderId,
      reason: 'changed my mind',
    })
    assert.equal(codeOf(late.body), 'state_conflict', 'no refund request after acknowledging')
  })

  test('orders belong to the wallet across its sessions', async () => {
    const account = newAccount()
    const { orderId } = await placeOrder(t, account)
    const later = await signIn(t, account)
    assert.ok((await ordersOf(later)).some((o) => o.order_id === orderId))
    const commerce = await services<Commerce>(t, 'my_commerce', { session_token: later })
    assert.ok(commerce.body.agreement)
  })
})

describe('orders, sessions and requirements survive a restart', () => {
  test('a new instance over the same database (with a changed price) repeats the stored requirement', async () => {
    const fakes = await startWalletFakes()
    const db = await sharedDatabase()
    const account = newAccount()
    const first = await startServer({ databaseUrl: db.url, config: walletConfig(fakes) })
    let placed: Awaited<ReturnType<typeof placeOrder>>
    try {
      placed = await placeOrder(first, account)
    } finally {
      await first.close()
    }
    const changed = walletConfig(fakes)
    const services2 = (changed.services ?? []).map((s) => ({ ...s, price_usdc: '0.5', terms: 'changed' }))
    const second = await startServer({
      databaseUrl: db.url,
      clock: first.clock,
      config: { ...changed, services: services2 },
    })
    try {
      const again = await services(second, 'pay', { session_token: placed.session, order_id: placed.orderId })
      assert.equal(again.status, 402, JSON.stringify(again.body))
      assert.equal(again.headers.get('payment-required'), placed.required, 'byte for byte after the restart')
      const paid = await services(
        second,
        'pay',
        { session_token: placed.session, order_id: placed.orderId },
        {
          'payment-signature': await paymentHeader(account, placed.required),
        },
      )
      assert.equal(paid.status, 200, 'paid at the price fixed at order time')
    } finally {
      await second.close()
      await db.drop()
      await fakes.close()
    }
  })
})

describe('inactive payments', () => {
  test('an empty catalog answers 403 payments_inactive; reading orders still works', async () => {
    const t = await startServer({ config: { services: [] } })
    try {
      const doc = await t.get<{ payments: { active: boolean; pay_to: string | null }; services: unknown[] }>(
        '/api/services',
      )
      assert.deepEqual([doc.body.payments.active, doc.body.payments.pay_to, doc.body.services], [false, null, []])
      const session = await signIn(t)
      for (const [action, fields] of [
        ['quote', { service_id: 'review' }],
        ['accept_agreement', { session_token: session, terms_version: 'x' }],
        ['order', { session_token: session, service_id: 'review' }],
        ['pay', { session_token: session, order_id: crypto.randomUUID() }],
      ] as const) {
        const reply = await services(t, action, fields)
        assert.equal(reply.status, 403, action)
        assert.equal(codeOf(reply.body), 'payments_inactive')
      }
      assert.equal((await services(t, 'my_commerce', { session_token: session })).status, 200)
    } finally {
      await t.close()
    }
  })
})

function decodeAuthorization(header: string): { nonce: string; validBefore: string } {
  const payload = decodePaymentSignatureHeader(header).payload as {
    authorization: { nonce: string; validBefore: string }
  }
  return payload.authorization
}
