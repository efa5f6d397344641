/**
 * A local stand-in for Base and for an x402 facilitator: two small Fastify servers on 127.0.0.1 over
 * one in-memory chain state. The JSON-RPC responder answers what viem asks (transactions, receipts,
 * block number, USDC's authorizationState and AuthorizationUsed logs); the facilitator really checks
 * the EIP-3009 signature of a payment (viem verifyTypedData) and settles it into the same chain.
 * Tests switch modes to make either one fail, hang, or lose an answer.
 */
import { randomBytes } from 'node:crypto'
import Fastify, { type FastifyInstance } from 'fastify'
import {
  decodeFunctionData,
  encodeFunctionResult,
  isAddressEqual,
  parseAbi,
  toEventSelector,
  toHex,
  verifyTypedData,
  type Address,
  type Hex,
} from 'viem'
import { USDC_BASE } from '../../src/payments/catalog.ts'

const EIP3009 = parseAbi(['function authorizationState(address authorizer, bytes32 nonce) view returns (bool)'])
const AUTHORIZATION_USED = toEventSelector('AuthorizationUsed(address,bytes32)')
const ZERO_HASH = `0x${'0'.repeat(64)}` as Hex

export interface FakeTx {
  from: Address
  to: Address | null
  value: bigint
  status: 'success' | 'reverted'
  /** null: in the mempool, not mined. */
  blockNumber: bigint | null
  chainId: number
}

export type RpcMode = 'ok' | 'error' | 'hang'
/** settle modes: `lose_answer` settles on chain, then never answers; `hang` never settles nor answers. */
export type SettleMode = 'ok' | 'fail' | 'lose_answer' | 'hang'

export class FakeChain {
  blockNumber = 1000n
  readonly txs = new Map<string, FakeTx>()
  /** `${from}:${nonce}` (lower case) -> the settling transaction. */
  readonly authorizations = new Map<string, Hex>()
  rpcMode: RpcMode = 'ok'
  settleMode: SettleMode = 'ok'
  verifyValid = true
  /** The facilitator's verify never answers (within the clients' time limits). */
  verifyHang = false
  readonly calls = { rpc: 0, verify: 0, settle: 0, settled: 0 }

  /** A mined transaction with `confirmations` confirmations now; returns its hash. */
  addTx(tx: Partial<FakeTx> & { confirmations?: number }): Hex {
    const hash = toHex(randomBytes(32))
    const confirmations = BigInt(tx.confirmations ?? 5)
    this.txs.set(hash, {
      from: tx.from ?? (toHex(randomBytes(20)) as Address),
      to: tx.to === undefined ? (toHex(randomBytes(20)) as Address) : tx.to,
      value: tx.value ?? 10n ** 15n,
      status: tx.status ?? 'success',
      blockNumber: tx.blockNumber !== undefined ? tx.blockNumber : this.blockNumber - confirmations + 1n,
      chainId: tx.chainId ?? 8453,
    })
    return hash
  }

  authorizationKey(from: string, nonce: string): string {
    return `${from.toLowerCase()}:${nonce.toLowerCase()}`
  }
}

const hexQ = (value: bigint | number) => toHex(value)

function txJson(hash: string, tx: FakeTx) {
  const mined = tx.blockNumber !== null
  return {
    hash,
    from: tx.from,
    to: tx.to,
    value: hexQ(tx.value),
    input: '0x',
    nonce: '0x1',
    gas: '0x5208',
    maxFeePerGas: '0x3b9aca00',
    maxPriorityFeePerGas: '0x1',
    type: '0x2',
    accessList: [],
    chainId: hexQ(tx.chainId),
    v: '0x0',
    yParity: '0x0',
    r: `0x${'1'.repeat(64)}`,
    s: `0x${'2'.repeat(64)}`,
    blockHash: mined ? ZERO_HASH : null,
    blockNumber: mined ? hexQ(tx.blockNumber as bigint) : null,
    transactionIndex: mined ? '0x0' : null,
  }
}

function receiptJson(hash: string, tx: FakeTx) {
  return {
    transactionHash: hash,
    transactionIndex: '0x0',
    blockHash: ZERO_HASH,
    blockNumber: hexQ(tx.blockNumber as bigint),
    from: tx.from,
    to: tx.to,
    cumulativeGasUsed: '0x5208',
    gasUsed: '0x5208',
    effectiveGasPrice: '0x1',
    contractAddress: null,
    logs: [],
    logsBloom: `0x${'0'.repeat(512)}`,
    status: tx.status === 'success' ? '0x1' : '0x0',
    type: '0x2',
  }
}

function rpcResult(chain: FakeChain, method: string, params: unknown[]): unknown {
  switch (method) {
    case 'eth_chainId':
      return '0x2105'
    case 'eth_blockNumber':
      return hexQ(chain.blockNumber)
    case 'eth_getTransactionByHash': {
      const hash = String(params[0]).toLowerCase()
      const tx = chain.txs.get(hash)
      return tx ? txJson(hash, tx) : null
    }
    case 'eth_getTransactionReceipt': {
      const hash = String(params[0]).toLowerCase()
      const tx = chain.txs.get(hash)
      return tx && tx.blockNumber !== null ? receiptJson(hash, tx) : null
    }
    case 'eth_call': {
      const call = params[0] as { to: string; data?: Hex; input?: Hex }
      if (!isAddressEqual(call.to as Address, USDC_BASE)) return '0x'
      const { args } = decodeFunctionData({ abi: EIP3009, data: (call.data ?? call.input) as Hex })
      const used = chain.authorizations.has(chain.authorizationKey(args[0], args[1]))
      return encodeFunctionResult({ abi: EIP3009, functionName: 'authorizationState', result: used })
    }
    case 'eth_getLogs': {
      const filter = params[0] as { topics?: Array<Hex | null> }
      const [selector, authorizer, nonce] = filter.topics ?? []
      if (selector !== AUTHORIZATION_USED || !authorizer || !nonce) return []
      const from = `0x${authorizer.slice(26)}`
      const tx = chain.authorizations.get(chain.authorizationKey(from, nonce))
      if (!tx) return []
      return [
        {
          address: USDC_BASE,
          topics: [AUTHORIZATION_USED, authorizer, nonce],
          data: '0x',
          blockNumber: hexQ(chain.blockNumber),
          blockHash: ZERO_HASH,
          transactionHash: tx,
          transactionIndex: '0x0',
          logIndex: '0x0',
          removed: false,
        },
      ]
    }
    default:
      throw new Error(`fake RPC does not answer ${method}`)
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
/** Long enough to outlast every client time limit the tests configure (1 second). */
const HANG_MS = 4000

async function listen(app: FastifyInstance): Promise<string> {
  const url = await app.listen({ port: 0, host: '127.0.0.1' })
  // Shared fakes live as long as the test process; neither they nor their kept-alive connections
  // may keep it from exiting.
  app.server.unref()
  app.server.on('connection', (socket) => socket.unref())
  return url
}

export async function startFakeRpc(chain: FakeChain): Promise<{ url: string; close(): Promise<void> }> {
  const app = Fastify({ forceCloseConnections: true })
  app.post('/', async (request, reply) => {
    chain.calls.rpc++
    if (chain.rpcMode === 'hang') await sleep(HANG_MS)
    if (chain.rpcMode === 'error') return reply.code(503).send('unavailable')
    const { id, method, params } = request.body as { id: number; method: string; params: unknown[] }
    try {
      return { jsonrpc: '2.0', id, result: rpcResult(chain, method, params ?? []) }
    } catch (err) {
      return { jsonrpc: '2.0', id, error: { code: -32601, message: (err as Error).message } }
    }
  })
  const url = await listen(app)
  return { url, close: () => app.close() }
}

const TRANSFER_WITH_AUTHORIZATION = [
  { name: 'from', type: 'address' },
  { name: 'to', type: 'address' },
  { name: 'value', type: 'uint256' },
  { name: 'validAfter', type: 'uint256' },
  { name: 'validBefore', type: 'uint256' },
  { name: 'nonce', type: 'bytes32' },
] as const

interface FacilitatorBody {
  paymentPayload: { payload: { signature: Hex; authorization: Record<string, string> } }
  paymentRequirements: { amount: string; payTo: string; asset: string; extra: { name: string; version: string } }
}

/** What a real facilitator checks before it settles: signature, payee, exact amount, unused nonce. */
async function check(chain: FakeChain, body: FacilitatorBody): Promise<string | undefined> {
  const { signature, authorization: a } = body.paymentPayload.payload
  const r = body.paymentRequirements
  const valid = await verifyTypedData({
    address: a.from as Address,
    domain: { name: r.extra.name, version: r.extra.version, chainId: 8453, verifyingContract: r.asset as Address },
    types: { TransferWithAuthorization: TRANSFER_WITH_AUTHORIZATION },
    primaryType: 'TransferWithAuthorization',
    message: {
      from: a.from as Address,
      to: a.to as Address,
      value: BigInt(a.value as string),
      validAfter: BigInt(a.validAfter as string),
      validBefore: BigInt(a.validBefore as string),
      nonce: a.nonce as Hex,
    },
    signature,
  }).catch(() => false)
  if (!valid) return 'invalid_exact_evm_payload_signature'
  if (!isAddressEqual(a.to as Address, r.payTo as Address)) return 'invalid_exact_evm_payload_recipient_mismatch'
  if (a.value !== r.amount) return 'invalid_exact_evm_payload_authorization_value'
  if (chain.authorizations.has(chain.authorizationKey(a.from as string, a.nonce as string))) return 'nonce_already_used'
  return chain.verifyValid ? undefined : 'insufficient_funds'
}

export async function startFakeFacilitator(chain: FakeChain): Promise<{ url: string; close(): Promise<void> }> {
  const app = Fastify({ forceCloseConnections: true })
  app.get('/supported', async () => ({
    kinds: [{ x402Version: 2, scheme: 'exact', network: 'eip155:8453' }],
    extensions: [],
    signers: {},
  }))
  app.post('/verify', async (request) => {
    chain.calls.verify++
    if (chain.verifyHang) await sleep(HANG_MS)
    const body = request.body as FacilitatorBody
    const reason = await check(chain, body)
    const payer = body.paymentPayload.payload.authorization.from
    return reason ? { isValid: false, invalidReason: reason, payer } : { isValid: true, payer }
  })
  app.post('/settle', async (request) => {
    chain.calls.settle++
    const body = request.body as FacilitatorBody
    const a = body.paymentPayload.payload.authorization
    if (chain.settleMode === 'hang') {
      await sleep(HANG_MS)
      return { success: false, errorReason: 'timeout', transaction: '', network: 'eip155:8453' }
    }
    const reason = chain.settleMode === 'fail' ? 'insufficient_funds' : await check(chain, body)
    if (reason) return { success: false, errorReason: reason, transaction: '', network: 'eip155:8453' }
    const transaction = toHex(randomBytes(32))
    chain.authorizations.set(chain.authorizationKey(a.from as string, a.nonce as string), transaction)
    chain.calls.settled++
    if (chain.settleMode === 'lose_answer') await sleep(HANG_MS)
    return { success: true, transaction, network: 'eip155:8453', payer: a.from }
  })
  const url = await listen(app)
  return { url, close: () => app.close() }
}
