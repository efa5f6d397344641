import { crc32 } from 'node:zlib'
import type { RandomSource } from './clock.ts'

/**
 * The checksummed format of every secret the service issues (DESIGN.md, "Trust and safety"): a prefix
 * naming what it unlocks, 43 base62 characters from a CSPRNG (256 bits) and 6 base62 characters of the
 * CRC32 of those 43. Secret scanners match it by a regular expression, and a typo is refused offline.
 */
export const KEY_PREFIXES = { participant: 'clr_', receipt: 'clrr_', session: 'clrs_' } as const
export type KeyKind = keyof typeof KEY_PREFIXES
/** Credential input fields that carry keys the service issues in this format. */
export const CHECKSUMMED_FIELDS: readonly string[] = ['key', 'receipt_key', 'session_token']

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'
export const BODY_LENGTH = 43
export const CHECKSUM_LENGTH = 6
// The largest multiple of 62 a byte can hold: bytes at or above it are drawn again, so no digit is favoured.
const UNBIASED_BELOW = 248

/** Every checksummed key, of any kind: the regular expression scanners get (docs/interface.md). */
export const CHECKSUMMED_KEY_SOURCE = `clr[rs]?_[0-9A-Za-z]{${BODY_LENGTH + CHECKSUM_LENGTH}}`
/** The participant key format, anchored: the form rotate_key asks for. */
export const PARTICIPANT_KEY_PATTERN = `^clr_[0-9A-Za-z]{${BODY_LENGTH + CHECKSUM_LENGTH}}$`
/** A shell line that prints a new participant key in this format (for rotate_key's new_key). */
export const GENERATE_KEY_COMMAND =
  `node -e "const c=require('crypto'),z=require('zlib'),A='${BASE62}';let b='';` +
  `while(b.length<43){const x=c.randomBytes(1)[0];if(x<248)b+=A[x%62]}` +
  `let n=z.crc32(b),s='';for(let i=0;i<6;i++){s=A[n%62]+s;n=Math.floor(n/62)}console.log('clr_'+b+s)"`
const SHAPE = /^(clr[rs]?_)([0-9A-Za-z]{43})([0-9A-Za-z]{6})$/

/** The CRC32 of a body in 6 base62 digits, most significant first (62^6 > 2^32). */
export function checksumOf(body: string): string {
  let value = crc32(body)
  let out = ''
  for (let i = 0; i < CHECKSUM_LENGTH; i++) {
    out = BASE62[value % 62] + out
    value = Math.floor(value / 62)
  }
  return out
}

/** A new key of the given kind: prefix, 43 unbiased base62 digits from the CSPRNG, checksum. */
export function issueKey(random: RandomSource, kind: KeyKind): string {
  let body = ''
  while (body.length < BODY_LENGTH) {
    for (const byte of random.bytes(BODY_LENGTH)) {
      if (byte < UNBIASED_BELOW && body.length < BODY_LENGTH) body += BASE62[byte % 62]
    }
  }
  return KEY_PREFIXES[kind] + body + checksumOf(body)
}

/** The key has the checksummed shape and its checksum matches its body. */
export function checksumHolds(key: string): boolean {
  const parts = SHAPE.exec(key)
  return parts !== null && checksumOf(parts[2] as string) === parts[3]
}

/** The key has the checksummed shape and a checksum that does not match: mistyped or made up. */
export function checksumFails(key: string): boolean {
  const parts = SHAPE.exec(key)
  return parts !== null && checksumOf(parts[2] as string) !== parts[3]
}

/** The random body of a checksummed key (for strength checks), or undefined for another shape. */
export function bodyOf(key: string): string | undefined {
  return SHAPE.exec(key)?.[2]
}
