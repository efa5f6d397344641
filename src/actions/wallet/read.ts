import { defineAction } from '../../core/action.ts'
import { LIMITS } from '../../schemas/common.ts'
import { EmptyInput } from '../../schemas/documents.ts'
import { MyWalletInput, MyWalletResult, WalletConfig } from '../../schemas/wallet.ts'
import { linksOf, receiptsOf } from '../../store/wallet/read.ts'
import { CHAIN_ID, CHALLENGE_SECONDS, SESSION_SECONDS, signInTarget } from '../../wallet/siwe-target.ts'
import { requireSession, SESSION_FROM_COOKIE } from '../../services/wallet-sessions.ts'
import { receiptView } from './tips.ts'

export const readWalletConfig = defineAction({
  name: 'read_wallet_config',
  summary: 'How wallet sign-in and tips are set up here: chain, sign-in domain and URI, tip address, status.',
  http: { method: 'GET', path: '/api/wallet', view: 'config' },
  auth: 'public',
  effect: 'read',
  input: EmptyInput,
  output: WalletConfig,
  errors: {},
  examples: [() => ({})],
  mcp: { title: 'Read how wallets and tips are set up', toolset: 'wallet' },
  handler: async (ctx) => {
    const target = signInTarget(ctx.services.baseUrl, ctx.config.walletDomain)
    const tips = ctx.config.tipAddress !== null && ctx.config.walletRpcUrl !== null
    return {
      chain_id: CHAIN_ID,
      sign_in: {
        domain: target.domain,
        uri: target.uri,
        challenge_seconds: CHALLENGE_SECONDS,
        session_seconds: SESSION_SECONDS,
      },
      tips: {
        configured: tips,
        address: tips ? ctx.config.tipAddress : null,
        min_confirmations: ctx.config.tipMinConfirmations,
      },
      status: tips ? ('sign_in_and_tips' as const) : ('sign_in_only' as const),
      notes: [
        'Wallets are optional: participation, reading and posting never need a wallet or a payment.',
        'A sign-in signature proves control of a wallet only and authorizes no payment.',
        'Tip receipts are non-financial acknowledgements and confer nothing.',
      ],
    }
  },
})

export const myWallet = defineAction({
  name: 'my_wallet',
  summary: 'Your wallet session: its address and expiry, the participants you linked, your tip receipts.',
  http: { method: 'POST', path: '/api/wallet' },
  auth: 'public',
  effect: 'read',
  requestFields: SESSION_FROM_COOKIE,
  input: MyWalletInput,
  output: MyWalletResult,
  errors: { session_invalid: 403 },
  examples: [(refs) => ({ session_token: refs.wallet.session })],
  paging: [{ cursor: 'after', items: ['receipts'], next: 'next_cursor', hasMore: 'has_more' }],
  mcp: { title: 'Read your wallet session, links and tip receipts', toolset: 'wallet' },
  handler: async (ctx, input) => {
    const session = await requireSession(ctx, input.session_token)
    const page = await receiptsOf(ctx.db, session.address, {
      after: input.after ?? 0,
      limit: input.limit ?? LIMITS.page_default,
    })
    return {
      address: session.address,
      expires_at: session.expires_at,
      linked_participants: await linksOf(ctx.db, session.address),
      receipts: page.items.map((row) => ({ seq: Number(row.seq), ...receiptView(row) })),
      next_cursor: page.next,
      has_more: page.hasMore,
    }
  },
})
