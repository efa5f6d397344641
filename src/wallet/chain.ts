import {
  createPublicClient,
  http,
  isAddressEqual,
  parseAbi,
  TransactionNotFoundError,
  TransactionReceiptNotFoundError,
  type Address,
  type Hex,
  type PublicClient,
} from 'viem'
import type { Config } from '../config.ts'
import { ServiceError } from '../services/errors.ts'
import { USDC_BASE } from '../payments/catalog.ts'
import { CHAIN_ID } from './siwe-target.ts'

/** Seconds a caller should wait after the JSON-RPC node failed or timed out. */
export const CHAIN_RETRY_SECONDS = 30
/** Base makes a block every 2 seconds: how long a pending tip's missing confirmations take. */
const BLOCK_SECONDS = 2
/** How far back (in blocks, about a day on Base) reconciliation looks for a settlement's transaction. */
const SETTLEMENT_LOOKBACK_BLOCKS = 43_200n

const EIP3009 = parseAbi([
  'function authorizationState(address authorizer, bytes32 nonce) view returns (bool)',
  'event AuthorizationUsed(address indexed authorizer, bytes32 indexed nonce)',
])

export interface TipTransfer {
  from: Address
  valueWei: bigint
  confirmations: number
}

/** What the service asks of Base over JSON-RPC (WALLET_RPC_URL). */
export interface Chain {
  /** A confirmed native-token transfer of more than zero to the tip address, or a ServiceError saying why not. */
  checkTip(hash: Hex, tipAddress: string, minConfirmations: number): Promise<TipTransfer>
  /**
   * Whether USDC's EIP-3009 authorization (from, nonce) has been used on chain, i.e. whether that
   * payment settled; with its transaction when found in the recent blocks.
   */
  authorizationUsed(from: Address, nonce: Hex): Promise<{ used: boolean; transaction: Hex | null }>
}

/**
 * viem's public client over HTTP with an explicit time limit and no retries: the call happens while
 * a caller waits, so a node that is down must answer 503 quickly rather than after viem's backoff.
 */
export function createChain(config: Config): Chain {
  const client = createPublicClient({
    transport: http(config.walletRpcUrl ?? undefined, {
      timeout: config.walletRpcTimeoutSeconds * 1000,
      retryCount: 0,
    }),
  }) as PublicClient
  return {
    checkTip: (hash, tipAddress, min) => unavailableOnFailure(() => checkTip(client, hash, tipAddress, min)),
    authorizationUsed: (from, nonce) => unavailableOnFailure(() => authorizationUsed(client, from, nonce)),
  }
}

async function checkTip(client: PublicClient, hash: Hex, tipAddress: string, min: number): Promise<TipTransfer> {
  const tx = await orUndefined(client.getTransaction({ hash }), TransactionNotFoundError)
  if (!tx) throw new ServiceError('tip_not_found', 'The chain does not know this transaction hash.')
  const receipt = await orUndefined(client.getTransactionReceipt({ hash }), TransactionReceiptNotFoundError)
  if (!receipt) throw pending(0, min)
  if (receipt.status !== 'success') throw invalid('the transaction reverted')
  if (tx.chainId !== undefined && tx.chainId !== CHAIN_ID) throw invalid(`it is on chain ${tx.chainId}, not Base`)
  if (!tx.to || !isAddressEqual(tx.to, tipAddress as Address)) throw invalid('it was sent to another address')
  if (tx.value <= 0n) throw invalid('it transfers no native token')
  const head = await client.getBlockNumber({ cacheTime: 0 })
  const confirmations = head >= receipt.blockNumber ? Number(head - receipt.blockNumber + 1n) : 0
  if (confirmations < min) throw pending(confirmations, min)
  return { from: tx.from, valueWei: tx.value, confirmations }
}

async function authorizationUsed(client: PublicClient, from: Address, nonce: Hex) {
  const used = await client.readContract({
    address: USDC_BASE,
    abi: EIP3009,
    functionName: 'authorizationState',
    args: [from, nonce],
  })
  if (!used) return { used: false, transaction: null }
  const head = await client.getBlockNumber({ cacheTime: 0 })
  const fromBlock = head > SETTLEMENT_LOOKBACK_BLOCKS ? head - SETTLEMENT_LOOKBACK_BLOCKS : 0n
  // Some nodes refuse wide log ranges: the payment is settled either way, only its hash stays unknown.
  const logs = await client
    .getContractEvents({
      address: USDC_BASE,
      abi: EIP3009,
      eventName: 'AuthorizationUsed',
      args: { authorizer: from, nonce },
      fromBlock,
      toBlock: head,
    })
    .catch(() => [])
  return { used: true, transaction: logs[0]?.transactionHash ?? null }
}

const invalid = (why: string) => new ServiceError('tip_invalid', `This transaction is not a tip: ${why}.`)

function pending(confirmations: number, min: number): ServiceError {
  return new ServiceError(
    'tip_pending',
    `The transaction has ${confirmations} of the ${min} confirmations a tip needs; verify it again shortly.`,
    { retryAfterSeconds: Math.max(1, (min - confirmations) * BLOCK_SECONDS) },
  )
}

async function orUndefined<T>(promise: Promise<T>, notFound: abstract new (...args: never[]) => Error) {
  try {
    return await promise
  } catch (err) {
    if (err instanceof notFound) return undefined
    throw err
  }
}

/** A node that is down, slow or answering nonsense: 503 with Retry-After, and nothing recorded. */
async function unavailableOnFailure<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run()
  } catch (err) {
    if (err instanceof ServiceError) throw err
    throw new ServiceError('chain_unavailable', 'The Base JSON-RPC node did not answer; try again later.', {
      retryAfterSeconds: CHAIN_RETRY_SECONDS,
    })
  }
}
