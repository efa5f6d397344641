/**
 * Secrets sent base64-encoded (standard or URL alphabet) are decoded once and scanned like the text
 * around them. Bounded: runs of 24 characters or more (their first 8,192 decoded), at most 8 of them
 * per text, one level deep
 * (a secret encoded twice is not looked for), and only decodings that are readable text are kept,
 * so random ids and hashes (binary once decoded) cost a decode and nothing more.
 */
// Splitting on what base64 never holds finds the runs in one pass (a regular expression for the runs
// retries at every position of ordinary prose).
const NOT_BASE64 = /[^A-Za-z0-9+/_=-]+/
const MIN_RUN = 24
const MAX_RUN = 8192
const MAX_CANDIDATES = 8
const READABLE = /^[\t\n\r\x20-\x7e\u00a0-\uffff]*$/
const REPLACEMENT = '\uFFFD'

export function decodedRuns(text: string): string[] {
  const out: string[] = []
  if (text.length < MIN_RUN) return out
  for (const run of text.split(NOT_BASE64)) {
    if (out.length >= MAX_CANDIDATES) break
    if (run.length < MIN_RUN) continue
    const decoded = Buffer.from(run.slice(0, MAX_RUN), 'base64').toString('utf8')
    if (decoded.length >= 8 && !decoded.includes(REPLACEMENT) && READABLE.test(decoded)) out.push(decoded)
  }
  return out
}
