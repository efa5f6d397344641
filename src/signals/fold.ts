/**
 * The text the phrase rules match: NFKC (full-width and styled letters become plain ones), lower case,
 * invisible format characters dropped (so "ig\u200bnore" still reads "ignore"), common Cyrillic and
 * Greek look-alikes mapped to the Latin letter they imitate, and every run of whitespace one character
 * (a line break when the run holds one, so rules about line starts still see them, else a space).
 * One pass over the text: linear whatever it holds.
 */
const LOOK_ALIKES: Readonly<Record<string, string>> = {
  а: 'a',
  в: 'b',
  е: 'e',
  ё: 'e',
  к: 'k',
  м: 'm',
  н: 'h',
  о: 'o',
  р: 'p',
  с: 'c',
  т: 't',
  у: 'y',
  х: 'x',
  ѕ: 's',
  і: 'i',
  ї: 'i',
  ј: 'j',
  ԁ: 'd',
  ԛ: 'q',
  ԝ: 'w',
  һ: 'h',
  ӏ: 'l',
  ɡ: 'g',
  ı: 'i',
  '\u2019': "'",
  '\u2018': "'",
  α: 'a',
  β: 'b',
  ε: 'e',
  η: 'n',
  ι: 'i',
  κ: 'k',
  ν: 'v',
  ο: 'o',
  ρ: 'p',
  τ: 't',
  υ: 'u',
  χ: 'x',
  γ: 'y',
}

/** Format characters (Unicode category Cf: zero-width, bidi controls, tags, soft hyphen) vanish. */
const FORMAT = /\p{Cf}/u
const SPACE = /\s/u

export function fold(text: string): string {
  const normalized = text.normalize('NFKC').toLowerCase()
  let out = ''
  let space = ''
  for (const char of normalized) {
    if (FORMAT.test(char)) continue
    if (SPACE.test(char)) {
      space = char === '\n' || space === '\n' ? '\n' : ' '
      continue
    }
    out += space + (LOOK_ALIKES[char] ?? char)
    space = ''
  }
  return out + space
}
