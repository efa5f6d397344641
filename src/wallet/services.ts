import { ConfigError, type Config } from '../config.ts'
import type { Payments } from '../payments/x402.ts'
import type { Chain } from './chain.ts'
import type * as Siwe from './siwe.ts'
import { once } from '../services/once.ts'

type SiweModule = typeof Siwe

/**
 * The wallet side's heavy helpers, built from the config on first use. viem and the x402 packages
 * take about 350 ms to import; loading them with the first wallet or payment request keeps them out
 * of every start (and of every test process that never touches a wallet).
 */
export interface WalletServices {
  /** EIP-4361 messages and signature checks (viem). */
  siwe(): Promise<SiweModule>
  /** The JSON-RPC client of Base; undefined while WALLET_RPC_URL is unset. */
  chain(): Promise<Chain | undefined>
  /** The x402 payment server; undefined while the catalog is empty (payments inactive). */
  payments(): Promise<Payments | undefined>
}

export function createWalletServices(config: Config): WalletServices {
  return {
    siwe: once(() => import('./siwe.ts')),
    chain: once(async () =>
      config.walletRpcUrl === null ? undefined : (await import('./chain.ts')).createChain(config),
    ),
    payments: once(async () =>
      config.services.length === 0 ? undefined : (await import('../payments/x402.ts')).createPayments(config),
    ),
  }
}

/**
 * EIP-55 checksums of the configured addresses, checked at start when any is set (the config check
 * itself is synchronous and does not load viem): a mixed-case address with a wrong checksum is a typo.
 */
export async function checkWalletAddresses(config: Config): Promise<void> {
  const named = [
    ['TIP_ADDRESS', config.tipAddress],
    ['X402_PAY_TO', config.x402PayTo],
  ] as const
  if (named.every(([, value]) => value === null)) return
  const { isAddress } = await import('viem')
  for (const [name, value] of named) {
    if (value !== null && !isAddress(value, { strict: true })) {
      throw new ConfigError(`${name} is not a valid address (EIP-55 checksum mismatch): ${value}`)
    }
  }
}
