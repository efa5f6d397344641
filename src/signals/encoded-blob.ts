/**
 * Long encoded runs a reader cannot read but a model may decode and follow: base64 (or base64url) of
 * 100+ characters mixing upper case, lower case and digits; hex of 130+ digits (longer than a SHA-512
 * digest, so ordinary hashes pass); 16+ escapes in a row (%XX, \xXX, \uXXXX). One hand-written pass over
 * the character codes, so no input can make it backtrack.
 */
const BASE64_MIN = 100
const HEX_MIN = 130
const ESCAPES_MIN = 16

const isBase64 = (c: number) =>
  (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 43 || c === 47 || c === 45 || c === 95
const isHex = (c: number) => (c >= 48 && c <= 57) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102)

/** The length of the escape at i (%41, \x41, \u0041), or 0. */
function escapeAt(text: string, i: number): number {
  const hexDigits = (from: number, count: number) => {
    for (let k = 0; k < count; k++) if (!isHex(text.charCodeAt(from + k))) return false
    return true
  }
  if (text[i] === '%' && hexDigits(i + 1, 2)) return 3
  if (text[i] !== '\\') return 0
  if (text[i + 1] === 'x' && hexDigits(i + 2, 2)) return 4
  if (text[i + 1] === 'u' && hexDigits(i + 2, 4)) return 6
  return 0
}

const classOf = (c: number) => (c >= 48 && c <= 57 ? 1 : c >= 65 && c <= 90 ? 2 : c >= 97 && c <= 122 ? 4 : 0)

/** One pass over the character codes, tracking the base64 run, the hex run and the chain of escapes. */
export function hasEncodedBlob(text: string): boolean {
  let base64 = 0
  let classes = 0
  let hex = 0
  let escapes = 0
  const base64Ends = () => base64 >= BASE64_MIN && classes === 7
  for (let i = 0; i < text.length;) {
    const c = text.charCodeAt(i)
    const escape = c === 37 || c === 92 ? escapeAt(text, i) : 0
    if (escape > 0) {
      if (base64Ends() || ++escapes >= ESCAPES_MIN) return true
      base64 = classes = hex = 0
      i += escape
      continue
    }
    escapes = 0
    if (isBase64(c)) {
      base64++
      classes |= classOf(c)
    } else {
      if (base64Ends()) return true
      base64 = classes = 0
    }
    hex = isHex(c) ? hex + 1 : 0
    if (hex >= HEX_MIN) return true
    i++
  }
  return base64Ends()
}
