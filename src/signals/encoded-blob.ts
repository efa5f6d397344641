/**
 * Long encoded runs a reader cannot read but a model may decode and follow: base64 (or base64url) of
 * 100+ characters mixing upper case, lower case and digits; hex of 130+ digits (longer than a SHA-512
 * digest, so ordinary hashes pass); 16+ escapes in a row (%XX, \xXX, \uXXXX). Hand-written scans, one
 * pass each, so no input can make them backtrack.
 */
const BASE64_MIN = 100
const HEX_MIN = 130
const ESCAPES_MIN = 16

const isBase64 = (c: number) =>
  (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 43 || c === 47 || c === 45 || c === 95
const isHex = (c: number) => (c >= 48 && c <= 57) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102)

function hasBase64Run(text: string): boolean {
  let length = 0
  let classes = 0
  for (let i = 0; i <= text.length; i++) {
    const c = i < text.length ? text.charCodeAt(i) : -1
    if (c !== -1 && isBase64(c)) {
      length++
      classes |= c >= 48 && c <= 57 ? 1 : c >= 65 && c <= 90 ? 2 : c >= 97 && c <= 122 ? 4 : 0
      continue
    }
    if (length >= BASE64_MIN && classes === 7) return true
    length = 0
    classes = 0
  }
  return false
}

function hasHexRun(text: string): boolean {
  let length = 0
  for (let i = 0; i < text.length; i++) {
    length = isHex(text.charCodeAt(i)) ? length + 1 : 0
    if (length >= HEX_MIN) return true
  }
  return false
}

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

function hasEscapeRun(text: string): boolean {
  let count = 0
  for (let i = 0; i < text.length;) {
    const length = escapeAt(text, i)
    if (length === 0) {
      count = 0
      i++
      continue
    }
    if (++count >= ESCAPES_MIN) return true
    i += length
  }
  return false
}

export function hasEncodedBlob(text: string): boolean {
  return hasBase64Run(text) || hasHexRun(text) || hasEscapeRun(text)
}
