/**
 * Hostile Unicode cannot hide a secret from the rules: compatibility forms (fullwidth letters,
 * mathematical alphanumerics, ligatures) fold to their plain letters, and invisible characters
 * (zero-width, bidi controls, tag characters, variation selectors, soft hyphens) are removed, so
 * none of them can split or disguise a key.
 */
const INVISIBLE = /[\p{Default_Ignorable_Code_Point}\p{Cf}]/gu

// Printable ASCII (and tabs, line breaks) is its own NFKC form and holds no invisible character:
// most posts skip both passes.
const NOT_ASCII = /[^\t-~]/

export function visibleText(text: string): string {
  return !NOT_ASCII.test(text) ? text : text.normalize('NFKC').replace(INVISIBLE, '')
}

const LINE_BREAK = /\r\n|[\n\r\v\f\u0085\u2028\u2029]/
// Blanks and quoting marks around a line (e-mail quotes, comment leaders, string concatenation).
const LINE_EDGES = /^[\s>#*/"'+,]+|[\s"'+,]+$/g
/** Lines a split secret may span, lines looked at, and the size of the reading: the bounds of the work. */
const MAX_SPAN = 6
const MAX_LINES = 1000
const MAX_READING = 65536

/**
 * A secret wrapped or cut over several lines, read whole: every chain of the last word of a line, the
 * lines of a single word after it, and the first word of the line ending the chain, one per line. A
 * chain never crosses a blank line or a line of prose, and spans at most MAX_SPAN lines.
 */
export function seamReading(text: string): string | undefined {
  if (!LINE_BREAK.test(text)) return undefined
  const lines = text.split(LINE_BREAK, MAX_LINES).map((line) => line.replace(LINE_EDGES, ''))
  if (lines.length < 2) return undefined
  const words = lines.map((line) => line.split(/\s+/).filter(Boolean))
  const chains: string[] = []
  let size = 0
  for (let a = 0; a < lines.length - 1 && size < MAX_READING; a++) {
    let chain = words[a]?.at(-1)
    for (let b = a + 1; chain !== undefined && b < lines.length && b <= a + MAX_SPAN; b++) {
      const next = words[b] as string[]
      if (next.length === 0) break
      chains.push(chain + next[0])
      size += chain.length + (next[0] as string).length + 1
      chain = next.length === 1 ? chain + next[0] : undefined
    }
  }
  return chains.join('\n').slice(0, MAX_READING)
}
