/**
 * Wallet and paid-services helpers for tests: the process-wide chain and facilitator fakes every
 * test server is configured with, real viem accounts that sign, and requests with headers.
 */
import { x402Client } from '@x402/core/client'
import { x402HTTPClient } from '@x402/core/http'
import { ExactEvmScheme } from '@x402/evm/exact/client'
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts'
import type { Config } from '../../src/config.ts'
import type { ExampleWallet } from '../../src/core/examples.ts'
import type { CatalogEntry } from '../../src/payments/catalog.ts'
import { FakeChain, startFakeFacilitator, startFakeRpc } from './chain-fakes.ts'
import type { Reply, TestServer } from './harness.ts'

export const TIP_ADDRESS = '0x1111111111111111111111111111111111111111'
export const PAY_TO = '0x2222222222222222222222222222222222222222'

export const TEST_SERVICES: CatalogEntry[] = [
  {
    id: 'review',
    title: 'A written review',
    description: 'An operator reads your thread and writes a review.',
    price_usdc: '0.25',
    terms: 'Delivered within 7 days as text.',
  },
  { id: 'tiny', title: 'Tiny', description: 'The smallest service.', price_usdc: '0.000001', terms: 'None.' },
]

export interface WalletFakes {
  chain: FakeChain
  rpcUrl: string
  facilitatorUrl: string
  close(): Promise<void>
}

export async function startWalletFakes(): Promise<WalletFakes> {
  const chain = new FakeChain()
  const rpc = await startFakeRpc(chain)
  const facilitator = await startFakeFacilitator(chain)
  return {
    chain,
    rpcUrl: rpc.url,
    facilitatorUrl: facilitator.url,
    close: async () => {
      await rpc.close()
      await facilitator.close()
    },
  }
}

let shared: Promise<WalletFakes> | undefined

/** One pair of fakes per test process (unref'd: they never keep it alive). */
export function sharedWalletFakes(): Promise<WalletFakes> {
  return (shared ??= startWalletFakes())
}

/** Tips and payments configured against the fakes, with one-second time limits. */
export function walletConfig(fakes: Pick<WalletFakes, 'rpcUrl' | 'facilitatorUrl'>): Partial<Config> {
  return {
    walletRpcUrl: fakes.rpcUrl,
    walletRpcTimeoutSeconds: 1,
    tipAddress: TIP_ADDRESS,
    tipMinConfirmations: 3,
    services: TEST_SERVICES,
    x402PayTo: PAY_TO,
    x402FacilitatorUrl: fakes.facilitatorUrl,
    x402FacilitatorTimeoutSeconds: 1,
  }
}

export const newAccount = (): PrivateKeyAccount => privateKeyToAccount(generatePrivateKey())

/** POST with optional extra request headers; the reply's headers included. */
export async function send<T = Record<string, unknown>>(
  t: TestServer,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Reply<T>> {
  const res = await fetch(t.url + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  })
  const text = await res.text()
  return { status: res.status, body: (text ? JSON.parse(text) : null) as T, headers: res.headers }
}

export const wallet = <T = Record<string, unknown>>(
  t: TestServer,
  action: string,
  fields: Record<string, unknown> = {},
  headers: Record<string, string> = {},
) => send<T>(t, '/api/wallet', { action, ...fields }, headers)

export const services = <T = Record<string, unknown>>(
  t: TestServer,
  action: string,
  fields: Record<string, unknown> = {},
  headers: Record<string, string> = {},
) => send<T>(t, '/api/services', { action, ...fields }, headers)

/** challenge -> personal_sign with the account -> the signed message, ready for sign_in. */
export async function signedChallenge(t: TestServer, account: PrivateKeyAccount) {
  const challenge = await wallet<{ message: string }>(t, 'challenge', { address: account.address })
  if (challenge.status !== 200) throw new Error(`challenge: ${challenge.status} ${JSON.stringify(challenge.body)}`)
  const { message } = challenge.body
  return { message, signature: await account.signMessage({ message }) }
}

/** A live session of the account; returns its token. */
export async function signIn(t: TestServer, account: PrivateKeyAccount = newAccount()): Promise<string> {
  const reply = await wallet<{ session_token: string }>(t, 'sign_in', await signedChallenge(t, account))
  if (reply.status !== 200) throw new Error(`sign_in: ${reply.status} ${JSON.stringify(reply.body)}`)
  return reply.body.session_token
}

/** Signs in, accepts the current terms and orders a service; returns the session, order and 402 reply. */
export async function placeOrder(t: TestServer, account: PrivateKeyAccount, serviceId = 'review') {
  const session = await signIn(t, account)
  const doc = await t.get<{ terms: { version: string } }>('/api/services')
  const accepted = await services(t, 'accept_agreement', {
    session_token: session,
    terms_version: doc.body.terms.version,
  })
  if (accepted.status !== 200) throw new Error(`accept_agreement: ${accepted.status} ${JSON.stringify(accepted.body)}`)
  const reply = await services<{ order_id: string }>(t, 'order', { session_token: session, service_id: serviceId })
  if (reply.status !== 402) throw new Error(`order: ${reply.status} ${JSON.stringify(reply.body)}`)
  return { session, orderId: reply.body.order_id, reply, required: reply.headers.get('payment-required') as string }
}

/** The PAYMENT-SIGNATURE header a real x402 client makes for the requirement (EIP-3009, signed by account). */
export async function paymentHeader(account: PrivateKeyAccount, paymentRequired: string): Promise<string> {
  const client = new x402HTTPClient(new x402Client().register('eip155:8453', new ExactEvmScheme(account)))
  const required = client.getPaymentRequiredResponse((name) =>
    name.toLowerCase() === 'payment-required' ? paymentRequired : null,
  )
  const payload = await client.createPaymentPayload(required)
  return client.encodePaymentSignatureHeader(payload)['PAYMENT-SIGNATURE'] as string
}

/** Wallet records the registry examples point at (test/support/examples.ts). */
export interface WalletFixture extends Omit<ExampleWallet, 'tipTx'> {
  chain: FakeChain
}

async function paidOrder(t: TestServer, account: PrivateKeyAccount, session: string): Promise<string> {
  const reply = await services<{ order_id: string }>(t, 'order', { session_token: session, service_id: 'review' })
  const header = await paymentHeader(account, reply.headers.get('payment-required') as string)
  const paid = await services(
    t,
    'pay',
    { session_token: session, order_id: reply.body.order_id },
    { 'payment-signature': header },
  )
  if (paid.status !== 200) throw new Error(`fixture pay: ${paid.status} ${JSON.stringify(paid.body)}`)
  return reply.body.order_id
}

export async function makeWalletFixture(
  t: TestServer,
  deliver: (orderId: string) => Promise<void>,
): Promise<WalletFixture> {
  const account = newAccount()
  const { session, orderId } = await placeOrder(t, account)
  const orders = {
    awaiting: orderId,
    paid: await paidOrder(t, account, session),
    refundable: await paidOrder(t, account, session),
    operatorRefund: await paidOrder(t, account, session),
    delivered: await paidOrder(t, account, session),
  }
  await deliver(orders.delivered)
  const doc = await t.get<{ terms: { version: string } }>('/api/services')
  return {
    chain: (await sharedWalletFakes()).chain,
    address: account.address,
    session,
    spareSession: await signIn(t, account),
    signed: await signedChallenge(t, account),
    termsVersion: doc.body.terms.version,
    orders,
  }
}
