import assert from 'node:assert/strict'
import { createServer, type AddressInfo } from 'node:net'
import { describe, test } from 'node:test'
import { startServer } from '../../support/harness.ts'
import { storedState } from '../../support/snapshot.ts'
import { newAccount, signIn, TIP_ADDRESS, wallet } from '../../support/wallet.ts'
import { useWalletServer } from '../../support/servers.ts'
import { codeOf, type ErrorReply } from '../../support/errors.ts'

interface Tip {
  receipt: { receipt_id: string; tx_hash: string; value_wei: string; confirmations: number; verified_at: string }
  attributed: boolean
  note: string
}

describe('tip receipts (native-token transfers on Base over JSON-RPC)', () => {
  const { t, fakes } = useWalletServer()

  async function refused(hash: string, status: number, code: string): Promise<ErrorReply> {
    const before = await storedState(t.server.database.db)
    const reply = await wallet<ErrorReply>(t, 'verify_tip', { tx_hash: hash })
    assert.equal(reply.status, status, JSON.stringify(reply.body))
    assert.equal(codeOf(reply.body), code)
    assert.equal(await storedState(t.server.database.db), before, 'nothing recorded')
    return reply.body
  }

  test('a confirmed transfer to the tip address gets one non-financial receipt', async () => {
    const hash = fakes.chain.addTx({ to: TIP_ADDRESS, value: 1234567890123456789n, confirmations: 3 })
    const reply = await wallet<Tip>(t, 'verify_tip', { tx_hash: hash })
    assert.equal(reply.status, 200, JSON.stringify(reply.body))
    assert.equal(reply.body.receipt.tx_hash, hash)
    assert.equal(reply.body.receipt.value_wei, '1234567890123456789', 'exact, as a string')
    assert.equal(reply.body.receipt.confirmations, 3)
    assert.equal(reply.body.receipt.verified_at, t.clock.now().toISOString())
    assert.equal(reply.body.attributed, false)
    assert.match(reply.body.note, /non-financial/)
    const again = await refused(hash, 409, 'tip_already_recorded')
    assert.match(again.error.message, new RegExp(reply.body.receipt.receipt_id))
    await refused(hash.toUpperCase().replace('0X', '0x'), 409, 'tip_already_recorded')
  })

  test('unknown, reverted, zero, misdirected and other-chain transactions are refused', async () => {
    await refused(`0x${'ab'.repeat(32)}`, 400, 'tip_not_found')
    await refused(fakes.chain.addTx({ to: TIP_ADDRESS, status: 'reverted' }), 400, 'tip_invalid')
    await refused(fakes.chain.addTx({ to: TIP_ADDRESS, value: 0n }), 400, 'tip_invalid')
    await refused(fakes.chain.addTx({}), 400, 'tip_invalid')
    await refused(fakes.chain.addTx({ to: null }), 400, 'tip_invalid')
    await refused(fakes.chain.addTx({ to: TIP_ADDRESS, chainId: 1 }), 400, 'tip_invalid')
  })

  test('too few confirmations, or not yet mined: 409 tip_pending, and it succeeds once confirmed', async () => {
    const young = fakes.chain.addTx({ to: TIP_ADDRESS, confirmations: 2 })
    const body = await refused(young, 409, 'tip_pending')
    assert.match(body.error.message, /2 of the 3 confirmations/)
    const mempool = fakes.chain.addTx({ to: TIP_ADDRESS, blockNumber: null })
    await refused(mempool, 409, 'tip_pending')
    fakes.chain.blockNumber += 1n
    assert.equal((await wallet(t, 'verify_tip', { tx_hash: young })).status, 200)
  })

  test('an RPC that fails or hangs answers 503 with Retry-After and records nothing', async () => {
    const hash = fakes.chain.addTx({ to: TIP_ADDRESS })
    for (const mode of ['error', 'hang'] as const) {
      fakes.chain.rpcMode = mode
      const started = Date.now()
      const before = await storedState(t.server.database.db)
      const reply = await wallet<ErrorReply>(t, 'verify_tip', { tx_hash: hash })
      assert.equal(reply.status, 503, mode)
      assert.equal(codeOf(reply.body), 'chain_unavailable')
      assert.equal(reply.headers.get('retry-after'), '30')
      assert.equal(reply.body.retry_after_seconds, 30)
      assert.ok(Date.now() - started < 3000, `${mode}: answered within the time limit, without retries`)
      assert.equal(await storedState(t.server.database.db), before)
    }
    fakes.chain.rpcMode = 'ok'
    assert.equal((await wallet(t, 'verify_tip', { tx_hash: hash })).status, 200, 'recorded once the node is back')
  })

  test('with a session, a tip sent from that wallet is kept with it (privately)', async () => {
    const account = newAccount()
    const session = await signIn(t, account)
    const mine = fakes.chain.addTx({ to: TIP_ADDRESS, from: account.address })
    const someone = fakes.chain.addTx({ to: TIP_ADDRESS })
    const own = await wallet<Tip>(t, 'verify_tip', { tx_hash: mine, session_token: session })
    assert.equal(own.body.attributed, true)
    const other = await wallet<Tip>(t, 'verify_tip', { tx_hash: someone, session_token: session })
    assert.equal(other.body.attributed, false)
    const me = await wallet<{ receipts: Array<{ receipt_id: string }> }>(t, 'my_wallet', { session_token: session })
    assert.deepEqual(
      me.body.receipts.map((r) => r.receipt_id),
      [own.body.receipt.receipt_id],
    )
    const bad = await wallet(t, 'verify_tip', { tx_hash: fakes.chain.addTx({ to: TIP_ADDRESS }), session_token: 'x' })
    assert.equal(codeOf(bad.body), 'session_invalid')
  })

  test('concurrent verifications of one hash record one receipt', async () => {
    const hash = fakes.chain.addTx({ to: TIP_ADDRESS })
    const replies = await Promise.all(Array.from({ length: 8 }, () => wallet(t, 'verify_tip', { tx_hash: hash })))
    assert.equal(replies.filter((r) => r.status === 200).length, 1, replies.map((r) => r.status).join(','))
    assert.ok(replies.filter((r) => r.status !== 200).every((r) => codeOf(r.body) === 'tip_already_recorded'))
    const rows = await t.server.database.db.selectFrom('tip_receipts').selectAll().where('tx_hash', '=', hash).execute()
    assert.equal(rows.length, 1)
  })
})

describe('tips that cannot be checked', () => {
  test('unconfigured tips answer 503 wallet_not_configured; config says so', async () => {
    const t = await startServer({ config: { tipAddress: null } })
    try {
      const reply = await wallet(t, 'verify_tip', { tx_hash: `0x${'12'.repeat(32)}` })
      assert.equal(reply.status, 503)
      assert.equal(codeOf(reply.body), 'wallet_not_configured')
      const config = await t.get<{ tips: unknown; status: string }>('/api/wallet?view=config')
      assert.deepEqual(config.body.tips, { configured: false, address: null, min_confirmations: 3 })
      assert.equal(config.body.status, 'sign_in_only')
    } finally {
      await t.close()
    }
  })

  test('a node that cannot be reached answers 503 chain_unavailable', async () => {
    const closed = createServer()
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
    const { port } = closed.address() as AddressInfo
    await new Promise((resolve) => closed.close(resolve))
    const t = await startServer({ config: { walletRpcUrl: `http://127.0.0.1:${port}` } })
    try {
      const reply = await wallet(t, 'verify_tip', { tx_hash: `0x${'34'.repeat(32)}` })
      assert.equal(reply.status, 503)
      assert.equal(codeOf(reply.body), 'chain_unavailable')
      assert.ok(Number(reply.headers.get('retry-after')) > 0)
    } finally {
      await t.close()
    }
  })
})
