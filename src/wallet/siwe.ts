import { getAddress, verifyMessage, type Address, type Hex } from 'viem'
import { createSiweMessage, parseSiweMessage, validateSiweMessage } from 'viem/siwe'
import { ServiceError } from '../services/errors.ts'
import { CHAIN_ID, CHALLENGE_SECONDS, type SignInTarget } from './siwe-target.ts'

export { signInTarget } from './siwe-target.ts'

/** How far a message's Issued At may run ahead of the server clock (wallet clocks drift). */
const CLOCK_SKEW_SECONDS = 60

export const SIGN_IN_STATEMENT =
  'Sign in to Clearing. This proves control of this wallet only and authorizes no payment.'

/** The EIP-4361 message a challenge hands out; https is the scheme EIP-4361 assumes when none is written. */
export function challengeMessage(target: SignInTarget, address: string, nonce: string, now: Date): string {
  return createSiweMessage({
    address: getAddress(address.toLowerCase()),
    chainId: CHAIN_ID,
    domain: target.domain,
    uri: target.uri,
    version: '1',
    nonce,
    issuedAt: now,
    expirationTime: new Date(now.getTime() + CHALLENGE_SECONDS * 1000),
    statement: SIGN_IN_STATEMENT,
    ...(target.scheme === 'https' ? {} : { scheme: target.scheme }),
  })
}

/** The checksummed form of an address, as stored and compared. */
export const checksummed = (address: string): Address => getAddress(address.toLowerCase())

export interface SignedMessage {
  address: Address
  nonce: string
}

const refuse = (code: ConstructorParameters<typeof ServiceError>[0], message: string) => new ServiceError(code, message)

/**
 * Every check of a signed sign-in message except the nonce's single use (the caller consumes it in
 * its transaction): EIP-4361 form, domain, URI, scheme, chain 8453, issued-at, expiry and not-before
 * at `now` (the injected clock), and the signature. viem checks neither chain id, URI nor issued-at,
 * so those are checked here. Signatures are verified offline (ECDSA recovery, externally owned
 * accounts): sign-in never waits on a JSON-RPC node.
 */
export async function checkSignIn(
  target: SignInTarget,
  message: string,
  signature: Hex,
  now: Date,
): Promise<SignedMessage> {
  const parsed = parseSiweMessage(message)
  const { address, domain, uri, chainId, nonce, issuedAt, version } = parsed
  if (!address || !domain || !uri || chainId === undefined || !nonce || !issuedAt || version !== '1') {
    throw refuse('wallet_message_invalid', 'The message is not an EIP-4361 sign-in message from a challenge.')
  }
  if (domain !== target.domain || uri !== target.uri || (parsed.scheme ?? 'https') !== target.scheme) {
    throw refuse('wallet_domain_mismatch', `The message must name domain ${target.domain} and URI ${target.uri}.`)
  }
  if (chainId !== CHAIN_ID) {
    throw refuse('wallet_chain_mismatch', `The message must name chain id ${CHAIN_ID} (Base), not ${chainId}.`)
  }
  const age = (now.getTime() - issuedAt.getTime()) / 1000
  const expired = parsed.expirationTime !== undefined && parsed.expirationTime.getTime() <= now.getTime()
  if (expired || age > CHALLENGE_SECONDS || age < -CLOCK_SKEW_SECONDS) {
    throw refuse('wallet_message_expired', 'The message is expired or not yet valid: ask for a new challenge.')
  }
  if (!validateSiweMessage({ message: parsed, domain: target.domain, nonce, time: now })) {
    throw refuse('wallet_message_invalid', 'The message is not valid at this time (not-before or address).')
  }
  const valid = await verifyMessage({ address, message, signature }).catch(() => false)
  if (!valid) throw refuse('wallet_signature_invalid', 'The signature was not made by the address in the message.')
  return { address: checksummed(address), nonce }
}
