/**
 * Snippets come back from the engines (FTS5 snippet(), PostgreSQL ts_headline()) with a start and an
 * end marker around each match. The markers are two private-use characters; a text that itself
 * contains either is highlighted again with two it does not contain (markersFor), so participant text
 * can never pose as a highlight. The result is plain segments, `{text, match}`, never markup: each
 * reader escapes text for its own output.
 */
export interface Segment {
  text: string
  match: boolean
}

export interface Markers {
  start: string
  end: string
}

const FIRST_PRIVATE_USE = 0xe000
const PRIVATE_USE_COUNT = 6400

/** `count` private-use characters the text does not contain (a text of 4000 cannot hold all 6400). */
export function freeChars(text: string, count: number): string[] {
  const chars: string[] = []
  for (let n = 0; n < PRIVATE_USE_COUNT && chars.length < count; n++) {
    const char = String.fromCodePoint(FIRST_PRIVATE_USE + n)
    if (!text.includes(char)) chars.push(char)
  }
  if (chars.length < count) throw new Error('no free private-use characters')
  return chars
}

export const DEFAULT_MARKERS: Markers = markersFor('')

/** Two markers absent from the text (the default pair when it contains neither). */
export function markersFor(text: string): Markers {
  const [start, end] = freeChars(text, 2) as [string, string]
  return { start, end }
}

export function needsOwnMarkers(text: string): boolean {
  return text.includes(DEFAULT_MARKERS.start) || text.includes(DEFAULT_MARKERS.end)
}

/** Splits marked text into segments; adjacent segments of the same kind are merged. */
export function segmentsOf(marked: string, markers: Markers): Segment[] {
  const segments: Segment[] = []
  const push = (text: string, match: boolean) => {
    if (text === '') return
    const last = segments.at(-1)
    if (last && last.match === match) last.text += text
    else segments.push({ text, match })
  }
  let rest = marked
  while (rest.length > 0) {
    const open = rest.indexOf(markers.start)
    if (open === -1) {
      push(rest, false)
      break
    }
    push(rest.slice(0, open), false)
    const close = rest.indexOf(markers.end, open + 1)
    const end = close === -1 ? rest.length : close
    push(rest.slice(open + markers.start.length, end), true)
    rest = close === -1 ? '' : rest.slice(close + markers.end.length)
  }
  return segments
}
