/**
 * Secrets sent base64-encoded (standard or URL alphabet) are decoded once and scanned like the text
 * around them. Bounded: runs of 24 to 8,192 characters, at most 8 of them per text, one level deep
 * (a secret encoded twice is not looked for), and only decodings that are readable text are kept,
 * so random ids and hashes (binary once decoded) cost a decode and nothing more.
 */
const CANDIDATE = /[A-Za-z0-9+/_-]{24,8192}={0,2}/g
const MAX_CANDIDATES = 8
const READABLE = /^[\t\n\r\x20-\x7e\u00a0-\uffff]*$/
const REPLACEMENT = '\uFFFD'

export function decodedRuns(text: string): string[] {
  const out: string[] = []
  for (const match of text.matchAll(CANDIDATE)) {
    if (out.length >= MAX_CANDIDATES) break
    const decoded = Buffer.from(match[0], 'base64').toString('utf8')
    if (decoded.length >= 8 && !decoded.includes(REPLACEMENT) && READABLE.test(decoded)) out.push(decoded)
  }
  return out
}
