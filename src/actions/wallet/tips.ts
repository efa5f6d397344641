import type { Hex } from 'viem'
import { defineAction, type ActionContext } from '../../core/action.ts'
import { iso } from '../../services/clock.ts'
import { ServiceError } from '../../services/errors.ts'
import { VerifyTipInput, VerifyTipResult } from '../../schemas/wallet.ts'
import { nextId } from '../../store/counters.ts'
import type { Db } from '../../db/database.ts'
import { insertReceipt, type TipReceiptRow } from '../../store/wallet/write.ts'
import { findReceiptByHash } from '../../store/wallet/read.ts'
import { requireSession, SESSION_FROM_COOKIE } from '../../services/wallet-sessions.ts'

const NOTE = 'A non-financial acknowledgement of a tip: it confers nothing and unlocks nothing.'

export function receiptView(row: TipReceiptRow) {
  return {
    receipt_id: row.id,
    tx_hash: row.tx_hash,
    value_wei: row.value_wei,
    confirmations: Number(row.confirmations),
    verified_at: row.verified_at,
  }
}

async function refuseRecorded(db: Db, hash: string): Promise<void> {
  const earlier = await findReceiptByHash(db, hash)
  if (earlier) {
    throw new ServiceError('tip_already_recorded', `This transaction was already recorded as receipt ${earlier.id}.`)
  }
}

async function tipChain(ctx: ActionContext) {
  const chain = await ctx.services.wallet.chain()
  const address = ctx.config.tipAddress
  if (!chain || address === null) {
    throw new ServiceError('wallet_not_configured', 'Tips are not configured on this server.', {
      retryAfterSeconds: 3600,
    })
  }
  return { chain, address }
}

export const verifyTip = defineAction({
  name: 'verify_tip',
  summary: 'Record a receipt for a native-token tip on Base (chain 8453) sent to the tip address.',
  description:
    'Checks over JSON-RPC that the transaction succeeded, sent more than zero to the configured tip address and has enough confirmations; each hash is recorded once. With session_token the receipt is kept with your wallet when it sent the tip.',
  http: { method: 'POST', path: '/api/wallet' },
  auth: 'public',
  effect: 'write',
  callsOut: true,
  requestFields: SESSION_FROM_COOKIE,
  input: VerifyTipInput,
  output: VerifyTipResult,
  errors: {
    wallet_not_configured: 503,
    session_invalid: 403,
    tip_not_found: 400,
    tip_invalid: 400,
    tip_pending: 409,
    tip_already_recorded: 409,
    chain_unavailable: 503,
  },
  examples: [(refs) => ({ tx_hash: refs.wallet.tipTx(), session_token: refs.wallet.session })],
  mcp: { title: 'Verify a tip sent on Base', toolset: 'wallet' },
  handler: async (ctx, input) => {
    const { chain, address } = await tipChain(ctx)
    const hash = input.tx_hash.toLowerCase()
    const session = input.session_token === undefined ? undefined : await requireSession(ctx, input.session_token)
    await refuseRecorded(ctx.db, hash)
    // The node is asked outside any transaction: nothing is held while it answers, nothing is
    // stored when it does not.
    const tip = await chain.checkTip(hash as Hex, address, ctx.config.tipMinConfirmations)
    const attributed = session !== undefined && tip.from.toLowerCase() === session.address.toLowerCase()
    return ctx.transaction(async (db) => {
      // A concurrent verify of the same hash loses on the unique hash; its retry lands here.
      await refuseRecorded(db, hash)
      const row: TipReceiptRow = {
        id: ctx.random.uuid(),
        seq: await nextId(db, 'tip_receipts'),
        tx_hash: hash,
        value_wei: tip.valueWei.toString(),
        confirmations: tip.confirmations,
        address: attributed ? (session?.address ?? null) : null,
        verified_at: iso(ctx.now),
      }
      await insertReceipt(db, row)
      return { receipt: receiptView(row), attributed, note: NOTE }
    })
  },
})
