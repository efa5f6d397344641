/**
 * A wallet address, a session token, a sign-in signature or nonce, and a payment signature never
 * appear in any public read or in any log line, whatever the wallet did: signed in (with the page
 * cookie), linked a participant who posts, tipped, ordered and paid.
 */
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { parseSiweMessage } from 'viem/siwe'
import { call, example, makeFixture, registry } from '../../support/examples.ts'
import { post, startServer, type TestServer } from '../../support/harness.ts'
import {
  newAccount,
  paymentHeader,
  placeOrder,
  services,
  signedChallenge,
  TIP_ADDRESS,
  wallet,
  type WalletFakes,
  sharedWalletFakes,
} from '../../support/wallet.ts'

/** Reads that belong to a session (its own wallet and orders): private by construction. */
const SESSION_READS = new Set(['my_wallet', 'my_commerce'])

describe('no wallet secret or address in public reads or logs', () => {
  let t: TestServer
  let fakes: WalletFakes
  const secrets: Record<string, string> = {}

  before(async () => {
    fakes = await sharedWalletFakes()
    t = await startServer({ config: { logLevel: 'trace' } })
    const account = newAccount()
    const signed = await signedChallenge(t, account)
    const signedIn = await wallet<{ session_token: string }>(t, 'sign_in', { ...signed, cookie: true })
    const session = signedIn.body.session_token
    const me = await t.join('Wallet Holder', 'w-model')
    await wallet(t, 'link_wallet', { key: me.key, session_token: session })
    await post(t, me.key, { content: 'a post by a participant with a linked wallet' })
    const tip = fakes.chain.addTx({ to: TIP_ADDRESS, from: account.address })
    assert.equal((await wallet(t, 'verify_tip', { tx_hash: tip, session_token: session })).status, 200)
    const placed = await placeOrder(t, account)
    const payment = await paymentHeader(account, placed.required)
    const paid = await services(
      t,
      'pay',
      { session_token: placed.session, order_id: placed.orderId },
      {
        'payment-signature': payment,
      },
    )
    assert.equal(paid.status, 200)
    Object.assign(secrets, {
      address: account.address,
      'address (lower case)': account.address.toLowerCase(),
      'address (no 0x)': account.address.slice(2).toLowerCase(),
      'session token': session,
      'order session token': placed.session,
      'sign-in signature': signed.signature,
      'sign-in nonce': parseSiweMessage(signed.message).nonce as string,
      'payment header': payment,
      'payment signature': JSON.parse(Buffer.from(payment, 'base64').toString()).payload.signature,
    })
  })
  after(() => t.close())

  test('every public read of the registry, the feed, the documents and the page', async () => {
    const f = await makeFixture(t)
    const reads = registry.all.filter(
      ({ def }) =>
        def.http.method === 'GET' || (def.effect === 'read' && def.auth !== 'operator' && !SESSION_READS.has(def.name)),
    )
    assert.ok(reads.length > 20)
    const bodies: Array<[string, string]> = []
    for (const entry of reads) {
      const reply = await call(t, entry, example(entry.def.name, f))
      assert.equal(reply.status, 200, `${entry.def.name}: ${JSON.stringify(reply.body)}`)
      bodies.push([entry.def.name, JSON.stringify(reply.body)])
    }
    for (const path of ['/feed.json', '/openapi.json', '/.well-known/connections.json']) {
      bodies.push([path, JSON.stringify((await t.get(path)).body)])
    }
    bodies.push(['/wallet', await (await fetch(`${t.url}/wallet`)).text()])
    // The search itself works: the session's own private read does show its address.
    const own = await wallet(t, 'my_wallet', { session_token: secrets['session token'] })
    assert.ok(JSON.stringify(own.body).includes(secrets.address as string))
    for (const [name, text] of bodies) {
      for (const [what, secret] of Object.entries(secrets)) {
        assert.ok(!text.toLowerCase().includes(secret.toLowerCase()), `${name} shows the ${what}`)
      }
    }
  })

  test('no log line carries any of them', () => {
    const logs = t.logs.join('')
    assert.ok(t.logs.length > 20, 'the server logged (at trace level)')
    for (const [what, secret] of Object.entries(secrets)) {
      assert.ok(!logs.toLowerCase().includes(secret.toLowerCase()), `a log line shows the ${what}`)
    }
  })
})
