import { createHash } from 'node:crypto'

/**
 * The digest stored with each public row when it is written (migration 017 holds a frozen copy):
 * SHA-256, hex, of the UTF-8 text. A note revision's text is three fields, digested as the JSON array
 * [title, content, reason] (JSON.stringify of strings and nulls is already RFC 8785's form). Masking
 * leaves the digest as it was, so the chain over the records never breaks (docs/verification.md).
 */
export const sha256Hex = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex')

export const contributionDigest = (content: string): string => sha256Hex(content)

export const revisionDigest = (text: { title: string | null; content: string | null; reason: string | null }): string =>
  sha256Hex(JSON.stringify([text.title, text.content, text.reason]))
