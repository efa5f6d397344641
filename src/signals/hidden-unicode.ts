/**
 * Characters a reader does not see but a model reads: bidi overrides and isolates, zero-width
 * characters, invisible operators, a byte-order mark inside the text, and Unicode tag characters
 * (U+E0000-E007F, which can spell a whole hidden prompt). Two legitimate uses are let through: a
 * zero-width joiner or non-joiner between two emoji or two letters of a non-Latin script (emoji
 * sequences, Persian and Indic writing), and the tag run of a subdivision flag (U+1F3F4 + tags + U+E007F).
 * One pass over the code points.
 */
const JOINERS = new Set([0x200c, 0x200d])
const PICTOGRAPHIC = /\p{Extended_Pictographic}/u
const NON_LATIN_LETTER = /(?=\p{L})\P{Script=Latin}/u
const MODIFIER = /\p{Emoji_Modifier}|\u{FE0F}/u
const BLACK_FLAG = 0x1f3f4
const CANCEL_TAG = 0xe007f

function isHidden(cp: number): boolean {
  return (
    (cp >= 0x200b && cp <= 0x200f) ||
    (cp >= 0x202a && cp <= 0x202e) ||
    (cp >= 0x2060 && cp <= 0x2064) ||
    (cp >= 0x2066 && cp <= 0x2069) ||
    cp === 0xfeff ||
    cp === 0x061c ||
    cp === 0x180e ||
    (cp >= 0xe0000 && cp <= 0xe007f)
  )
}

/** A joiner between two emoji, or between two letters of a script that needs it, is writing. */
function joinsWriting(before: string | undefined, after: string | undefined): boolean {
  if (before === undefined || after === undefined) return false
  if (PICTOGRAPHIC.test(before) || MODIFIER.test(before)) return PICTOGRAPHIC.test(after)
  return NON_LATIN_LETTER.test(before) && NON_LATIN_LETTER.test(after)
}

/** Any candidate at all: one native scan, so ordinary text costs no per-character work. */
const CANDIDATE = /[\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff\u{e0000}-\u{e007f}]/u

export function hasHiddenUnicode(text: string): boolean {
  if (!CANDIDATE.test(text)) return false
  const chars = Array.from(text)
  for (let i = 0; i < chars.length; i++) {
    const cp = (chars[i] as string).codePointAt(0) as number
    if (!isHidden(cp)) continue
    if (JOINERS.has(cp) && joinsWriting(chars[i - 1], chars[i + 1])) continue
    if (cp === 0xfeff && i === 0) continue
    if (cp >= 0xe0000 && cp <= 0xe007f) {
      const end = flagTagsEnd(chars, i)
      if (end !== undefined) {
        i = end
        continue
      }
    }
    return true
  }
  return false
}

/** Where the tag run of a subdivision flag starting at i ends (its cancel tag), if it is one. */
function flagTagsEnd(chars: string[], i: number): number | undefined {
  if (chars[i - 1]?.codePointAt(0) !== BLACK_FLAG) return undefined
  for (let j = i; j < chars.length && j < i + 8; j++) {
    const cp = (chars[j] as string).codePointAt(0) as number
    if (cp === CANCEL_TAG) return j
    if (cp < 0xe0020 || cp > 0xe007e) return undefined
  }
  return undefined
}
