import { createHash, createPublicKey, sign, verify, type KeyObject } from 'node:crypto'
import { canonicalJson } from '../canonical-json.ts'
import type { ChainRecord } from './records.ts'

/** A public Ed25519 key as a JWK (RFC 8037), with its RFC 7638 thumbprint as `kid`. */
export interface PublicJwk {
  kty: 'OKP'
  crv: 'Ed25519'
  x: string
  kid: string
  alg: 'EdDSA'
  use: 'sig'
}

export interface RetiredKey {
  kty: 'OKP'
  crv: 'Ed25519'
  x: string
  valid_from?: string | undefined
  valid_until: string
}

/** What `/.well-known/clearing-signing-key` serves: the current JWK, and the retired ones in `previous`. */
export type SigningKeyDocument = PublicJwk & {
  previous: Array<PublicJwk & { valid_from?: string; valid_until: string }>
}

const b64url = (data: Buffer | string) => Buffer.from(data).toString('base64url')

export function publicJwkOf(key: { x: string }): PublicJwk {
  // RFC 7638: the SHA-256 of the required members in lexicographic order, no whitespace.
  const thumbprint = createHash('sha256')
    .update(canonicalJson({ crv: 'Ed25519', kty: 'OKP', x: key.x }))
    .digest()
  return { kty: 'OKP', crv: 'Ed25519', x: key.x, kid: b64url(thumbprint), alg: 'EdDSA', use: 'sig' }
}

/**
 * Signs receipts and chain heads with the server key: a JWS (RFC 7515) with `alg: EdDSA`, its
 * payload the RFC 8785 JSON of the record, detached (appendix F: `<header>..<signature>`). Ed25519
 * is deterministic, so a record's receipt is the same each time it is computed and is not stored.
 */
export class Signer {
  readonly jwk: PublicJwk
  readonly document: SigningKeyDocument
  private readonly key: KeyObject
  private readonly header: string

  constructor(privateKey: KeyObject, retired: readonly RetiredKey[] = []) {
    this.key = privateKey
    const x = createPublicKey(privateKey).export({ format: 'jwk' }).x
    if (typeof x !== 'string') throw new Error('the signing key has no Ed25519 public part')
    this.jwk = publicJwkOf({ x })
    this.header = b64url(canonicalJson({ alg: 'EdDSA', kid: this.jwk.kid }))
    const previous = retired.map(({ x: old, valid_from, valid_until }) => ({
      ...publicJwkOf({ x: old }),
      ...(valid_from === undefined ? {} : { valid_from }),
      valid_until,
    }))
    this.document = { ...this.jwk, previous }
  }

  /** A write's receipt: the record stored, and the signature over it. */
  receipt<R extends ChainRecord>(record: R): { record: R; signature: string } {
    return { record, signature: this.sign(record) }
  }

  /** The detached JWS over a value's canonical JSON. */
  sign(value: unknown): string {
    const input = `${this.header}.${b64url(canonicalJson(value))}`
    return `${this.header}..${sign(null, Buffer.from(input), this.key).toString('base64url')}`
  }
}

/**
 * Checks a detached JWS over a value with the public keys given (the current and retired JWKs of a
 * signing-key document): the key named by the header's kid. What a verifier with only the public
 * keys does; the verify command uses it.
 */
export function verifyDetached(jws: string, value: unknown, keys: readonly { kid: string; x: string }[]): boolean {
  const [header, empty, signature, ...rest] = jws.split('.')
  if (header === undefined || empty !== '' || signature === undefined || rest.length > 0) return false
  let parsed: { alg?: unknown; kid?: unknown }
  try {
    parsed = JSON.parse(Buffer.from(header, 'base64url').toString('utf8')) as typeof parsed
  } catch {
    return false
  }
  const jwk = keys.find((key) => key.kid === parsed.kid)
  if (parsed.alg !== 'EdDSA' || !jwk) return false
  const publicKey = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: jwk.x }, format: 'jwk' })
  const input = Buffer.from(`${header}.${b64url(canonicalJson(value))}`)
  return verify(null, input, publicKey, Buffer.from(signature, 'base64url'))
}
