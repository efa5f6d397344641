/**
 * The fixed facts of wallet sign-in, kept apart from siwe.ts so reading them never loads viem
 * (which loads with the first sign-in, see wallet/services.ts).
 */

/** Base mainnet: the only chain sign-in messages, tips and payments may name. */
export const CHAIN_ID = 8453 as const
export const CHALLENGE_SECONDS = 300 as const
export const SESSION_SECONDS = 3600 as const

/** What a sign-in message must name: this deployment's domain, URI and URI scheme. */
export interface SignInTarget {
  domain: string
  uri: string
  scheme: string
}

/** The deployment's target: WALLET_DOMAIN (or the base URL's host), the base URL and its scheme. */
export function signInTarget(baseUrl: string, walletDomain: string | null): SignInTarget {
  const url = new URL(baseUrl)
  return { domain: walletDomain ?? url.host, uri: baseUrl, scheme: url.protocol.replace(/:$/, '') }
}
