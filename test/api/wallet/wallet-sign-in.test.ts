import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { createSiweMessage, parseSiweMessage } from 'viem/siwe'
import { useServer } from '../../support/harness.ts'
import { storedState } from '../../support/snapshot.ts'
import { newAccount, signedChallenge, signIn, wallet } from '../../support/wallet.ts'
import { codeOf } from '../../support/errors.ts'

interface Session {
  session_token: string
  address: string
  expires_at: string
}
interface MyWallet {
  address: string
  expires_at: string
  linked_participants: Array<{ participant_id: string; name: string }>
}

describe('wallet sign-in (EIP-4361)', () => {
  const { t } = useServer()

  /** A refused sign-in answers with the code and leaves everything stored as it was. */
  async function refused(fields: Record<string, unknown>, status: number, code: string) {
    const before = await storedState(t.server.database.db)
    const reply = await wallet(t, 'sign_in', fields)
    assert.equal(reply.status, status, JSON.stringify(reply.body))
    assert.equal(codeOf(reply.body), code)
    assert.equal(await storedState(t.server.database.db), before, 'nothing stored changed')
  }

  test('config reports chain 8453, the sign-in domain and URI, lifetimes and tip status', async () => {
    const reply = await t.get<Record<string, unknown>>('/api/wallet?view=config')
    assert.equal(reply.status, 200)
    const host = new URL(t.url).host
    assert.deepEqual(reply.body.sign_in, { domain: host, uri: t.url, challenge_seconds: 300, session_seconds: 3600 })
    assert.equal(reply.body.chain_id, 8453)
    assert.deepEqual(reply.body.tips, {
      configured: true,
      address: '0x1111111111111111111111111111111111111111',
      min_confirmations: 3,
    })
    assert.equal(reply.body.status, 'sign_in_and_tips')
  })

  test('challenge hands out an EIP-4361 message for this deployment, its nonce stored only as a digest', async () => {
    const account = newAccount()
    const reply = await wallet<{ message: string; expires_at: string; chain_id: number }>(t, 'challenge', {
      address: account.address.toLowerCase(),
    })
    assert.equal(reply.status, 200)
    const parsed = parseSiweMessage(reply.body.message)
    assert.equal(parsed.address, account.address, 'checksummed')
    assert.equal(parsed.domain, new URL(t.url).host)
    assert.equal(parsed.uri, t.url)
    assert.equal(parsed.scheme, 'http')
    assert.equal(parsed.chainId, 8453)
    assert.equal(parsed.issuedAt?.toISOString(), t.clock.now().toISOString())
    assert.equal(parsed.expirationTime?.getTime(), t.clock.now().getTime() + 300_000)
    assert.equal(reply.body.expires_at, parsed.expirationTime?.toISOString())
    assert.match(parsed.nonce ?? '', /^[0-9a-f]{32}$/)
    assert.ok(!(await storedState(t.server.database.db)).includes(parsed.nonce as string), 'the nonce is not stored')
  })

  test('a real signature signs in for one hour; the token is stored only as a digest', async () => {
    const account = newAccount()
    const signed = await signedChallenge(t, account)
    const reply = await wallet<Session>(t, 'sign_in', signed)
    assert.equal(reply.status, 200, JSON.stringify(reply.body))
    assert.match(reply.body.session_token, /^clrs_[0-9A-Za-z]{49}$/)
    assert.equal(reply.body.address, account.address)
    assert.equal(reply.body.expires_at, new Date(t.clock.now().getTime() + 3_600_000).toISOString())
    assert.equal(reply.headers.get('set-cookie'), null, 'no cookie unless asked')
    const me = await wallet<MyWallet>(t, 'my_wallet', { session_token: reply.body.session_token })
    assert.equal(me.status, 200)
    assert.equal(me.body.address, account.address)
    const stored = await storedState(t.server.database.db)
    assert.ok(!stored.includes(reply.body.session_token), 'the session token is not stored')
    assert.ok(!stored.includes(signed.signature), 'the signature is not stored')
  })

  test('a replayed message is refused: the nonce is single-use', async () => {
    const signed = await signedChallenge(t, newAccount())
    assert.equal((await wallet(t, 'sign_in', signed)).status, 200)
    await refused(signed, 403, 'wallet_nonce_replayed')
  })

  test('20 concurrent sign-ins with one message: exactly one session', async () => {
    const account = newAccount()
    const signed = await signedChallenge(t, account)
    const replies = await Promise.all(Array.from({ length: 20 }, () => wallet<Session>(t, 'sign_in', signed)))
    const ok = replies.filter((r) => r.status === 200)
    assert.equal(ok.length, 1, replies.map((r) => r.status).join(','))
    for (const r of replies.filter((r) => r.status !== 200)) {
      assert.equal(r.status, 403)
      assert.equal(codeOf(r.body), 'wallet_nonce_replayed')
    }
    const sessions = await t.server.database.db
      .selectFrom('wallet_sessions')
      .select('address')
      .where('address', '=', account.address)
      .execute()
    assert.equal(sessions.length, 1)
  })

  test('an expired challenge is refused (the injected clock passes to viem as `time`)', async () => {
    const signed = await signedChallenge(t, newAccount())
    t.clock.advance(301)
    await refused(signed, 403, 'wallet_message_expired')
  })

  test('a nonce whose stored expiry has passed is refused, even in a message the wallet dated afresh', async () => {
    const redated = async (account: ReturnType<typeof newAccount>, message: string) => {
      const now = t.clock.now()
      const fresh = createSiweMessage({
        ...parseSiweMessage(message),
        issuedAt: now,
        expirationTime: new Date(now.getTime() + 300_000),
      } as Parameters<typeof createSiweMessage>[0])
      return { message: fresh, signature: await account.signMessage({ message: fresh }) }
    }
    const control = newAccount()
    const live = await signedChallenge(t, control)
    t.clock.advance(200)
    const accepted = await wallet(t, 'sign_in', await redated(control, live.message))
    assert.equal(
      accepted.status,
      200,
      `a re-dated message with a live nonce signs in: ${JSON.stringify(accepted.body)}`,
    )

    const account = newAccount()
    const { message } = await signedChallenge(t, account)
    t.clock.advance(301)
    await refused(await redated(account, message), 403, 'wallet_message_expired')
  })

  /** A message with our nonce (from a real challenge) but fields changed, signed by the account. */
  async function altered(change: (fields: ReturnType<typeof parseSiweMessage>) => Record<string, unknown>) {
    const account = newAccount()
    const { message } = await signedChallenge(t, account)
    const parsed = parseSiweMessage(message)
    const fields = { ...parsed, ...change(parsed) } as Parameters<typeof createSiweMessage>[0]
    const forged = createSiweMessage(fields)
    return { message: forged, signature: await account.signMessage({ message: forged }) }
  }

  test('a message for another domain, URI or scheme is refused', async () => {
    await refused(await altered(() => ({ domain: 'evil.example' })), 403, 'wallet_domain_mismatch')
    await refused(await altered(() => ({ uri: 'https://evil.example' })), 403, 'wallet_domain_mismatch')
    await refused(await altered(() => ({ scheme: 'https' })), 403, 'wallet_domain_mismatch')
  })

  test('a message for another chain is refused', async () => {
    await refused(await altered(() => ({ chainId: 1 })), 403, 'wallet_chain_mismatch')
  })

  test('issued-at too old or in the future is refused even without an expiration time', async () => {
    const now = t.clock.now().getTime()
    const old = await altered(() => ({ issuedAt: new Date(now - 301_000), expirationTime: undefined }))
    await refused(old, 403, 'wallet_message_expired')
    const future = await altered(() => ({ issuedAt: new Date(now + 120_000) }))
    await refused(future, 403, 'wallet_message_expired')
    const notYet = await altered(() => ({ notBefore: new Date(now + 60_000) }))
    await refused(notYet, 400, 'wallet_message_invalid')
  })

  test('a nonce the server never issued, or issued to another address, is refused', async () => {
    await refused(await altered(() => ({ nonce: 'a'.repeat(32) })), 403, 'wallet_nonce_unknown')
    const other = newAccount()
    const { message } = await signedChallenge(t, newAccount())
    const stolen = createSiweMessage({ ...parseSiweMessage(message), address: other.address } as Parameters<
      typeof createSiweMessage
    >[0])
    await refused(
      { message: stolen, signature: await other.signMessage({ message: stolen }) },
      403,
      'wallet_nonce_unknown',
    )
  })

  test('a signature by another key is refused and does not use up the nonce', async () => {
    const account = newAccount()
    const { message, signature } = await signedChallenge(t, account)
    await refused({ message, signature: await newAccount().signMessage({ message }) }, 403, 'wallet_signature_invalid')
    assert.equal((await wallet(t, 'sign_in', { message, signature })).status, 200, 'the owner can still sign in')
  })

  test('malformed input is a clear 400', async () => {
    await refused({ message: 'hello', signature: `0x${'1'.repeat(130)}` }, 400, 'wallet_message_invalid')
    await refused({ message: 'hello', signature: '0x1234' }, 400, 'invalid_request')
    const bad = await wallet(t, 'challenge', { address: '0x123' })
    assert.equal(bad.status, 400)
    assert.equal(codeOf(bad.body), 'invalid_request')
  })

  test('a session expires after one hour on the injected clock; sign_out revokes it', async () => {
    const expiring = await signIn(t)
    t.clock.advance(3599)
    assert.equal((await wallet(t, 'my_wallet', { session_token: expiring })).status, 200)
    t.clock.advance(1)
    const expired = await wallet(t, 'my_wallet', { session_token: expiring })
    assert.equal(expired.status, 403)
    assert.equal(codeOf(expired.body), 'session_invalid')

    const live = await signIn(t)
    const out = await wallet(t, 'sign_out', { session_token: live })
    assert.equal(out.status, 200)
    assert.deepEqual(out.body, { signed_out: true })
    assert.match(out.headers.get('set-cookie') ?? '', /^__Host-clearing_wallet=; Max-Age=0;/)
    assert.equal(codeOf((await wallet(t, 'my_wallet', { session_token: live })).body), 'session_invalid')
    const unknown = await wallet(t, 'sign_out', { session_token: 'wss_unknown' })
    assert.equal(codeOf(unknown.body), 'session_invalid')
  })

  test('cookie: true sets __Host-clearing_wallet for the page, which a same-origin page may send instead', async () => {
    const reply = await wallet<Session>(t, 'sign_in', { ...(await signedChallenge(t, newAccount())), cookie: true })
    assert.equal(reply.status, 200)
    const cookie = reply.headers.get('set-cookie') ?? ''
    assert.equal(
      cookie,
      `__Host-clearing_wallet=${reply.body.session_token}; Max-Age=3600; Path=/; HttpOnly; Secure; SameSite=Strict`,
    )
    assert.equal(reply.headers.get('cache-control'), 'no-store')
    const jar = `__Host-clearing_wallet=${reply.body.session_token}`
    const page = await wallet<MyWallet>(t, 'my_wallet', {}, { cookie: jar, 'sec-fetch-site': 'same-origin' })
    assert.equal(page.status, 200, JSON.stringify(page.body))
    assert.equal(page.body.address, reply.body.address)
    // Another site (or a client that is not a browser page) gets no session from the cookie.
    const crossSite = await wallet(t, 'my_wallet', {}, { cookie: jar, 'sec-fetch-site': 'cross-site' })
    assert.equal(crossSite.status, 400)
    assert.equal(codeOf(crossSite.body), 'invalid_request')
    assert.equal((await wallet(t, 'my_wallet', {}, { cookie: jar })).status, 400)
    // The body wins over the cookie.
    const other = await signIn(t)
    const both = await wallet<MyWallet>(
      t,
      'my_wallet',
      { session_token: other },
      { cookie: jar, 'sec-fetch-site': 'same-origin' },
    )
    assert.notEqual(both.body.address, reply.body.address)
  })

  test('link_wallet needs the participant key and a live session; unlink needs the key', async () => {
    const me = await t.join('Linker', 'm')
    const session = await signIn(t)
    const noSession = await wallet(t, 'link_wallet', { key: me.key, session_token: 'wss_nope' })
    assert.equal(noSession.status, 403)
    assert.equal(codeOf(noSession.body), 'session_invalid')
    const noKey = await wallet(t, 'link_wallet', { session_token: session })
    assert.equal(noKey.status, 400)
    const wrongKey = await wallet(t, 'link_wallet', { key: 'clr_wrong', session_token: session })
    assert.equal(codeOf(wrongKey.body), 'invalid_key')

    const linked = await wallet<{ participant_id: string; linked: boolean }>(t, 'link_wallet', {
      key: me.key,
      session_token: session,
    })
    assert.equal(linked.status, 200)
    assert.deepEqual([linked.body.participant_id, linked.body.linked], [me.id, true])
    const mine = await wallet<MyWallet>(t, 'my_wallet', { session_token: session })
    assert.deepEqual(
      mine.body.linked_participants.map((p) => [p.participant_id, p.name]),
      [[me.id, 'Linker']],
    )
    const unlinked = await wallet(t, 'unlink_wallet', { key: me.key })
    assert.deepEqual(unlinked.body, { participant_id: me.id, linked: false, was_linked: true })
    assert.deepEqual((await wallet<MyWallet>(t, 'my_wallet', { session_token: session })).body.linked_participants, [])
    assert.equal((await wallet(t, 'unlink_wallet', { key: me.key })).body.was_linked, false)
  })
})
