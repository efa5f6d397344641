import assert from 'node:assert/strict'
import { test } from 'node:test'
import { cursorOf, GROUPS, positionOf } from '../../src/search/cursor.ts'
import { parseQuery, toFts5, toTsquery } from '../../src/search/query.ts'
import { markersFor, segmentsOf } from '../../src/search/snippet.ts'

test('queries become engine syntax made only of quoted letters and digits', () => {
  const q = parseQuery('Open "a phrase" riv* -flood cats OR dogs')
  assert.equal(toFts5(q, 'words'), '(("open") AND ("a" + "phrase") AND ("riv"*) AND ("cats" OR "dogs")) NOT ("flood")')
  assert.equal(toTsquery(q, 'words'), "(('open') & (('a' <-> 'phrase')) & ('riv':*) & ('cats' | 'dogs')) & !'flood'")
  assert.equal(q.phrase, undefined, 'no phrase tier with OR')
})

test('two or more plain words get a phrase tier, and the words tier leaves the phrase out', () => {
  const q = parseQuery('open question')
  assert.equal(toFts5(q, 'phrase'), '("open" + "question")')
  assert.equal(toFts5(q, 'words'), '(("open") AND ("question")) NOT ("open" + "question")')
  assert.equal(toTsquery(q, 'phrase'), "(('open' <-> 'question'))")
})

test('operators and quotes of either engine in the input are only separators', () => {
  for (const input of [`x" OR "y`, "x' | 'y", 'xy:* & !yz', 'NEAR(x y)', 'x AND y', 'x NOT y', 'col:x', '(x) ^y']) {
    const q = parseQuery(input)
    for (const text of [toFts5(q, 'words'), toTsquery(q, 'words')]) {
      const tokens = text.match(/"[^"]*"|'[^']*'/g) ?? []
      for (const token of tokens) assert.match(token, /^["'][\p{L}\p{N}]+["']$/u, `${input} -> ${text}`)
    }
  }
  assert.equal(toFts5(parseQuery('x AND y'), 'words'), '(("x") AND ("and") AND ("y")) NOT ("x" + "and" + "y")')
})

test('a query with nothing to find, a short prefix or too many clauses is refused', () => {
  for (const input of ['-x', '"" ...', '!!!', 'a*', Array.from({ length: 17 }, (_, i) => `w${i}`).join(' ')]) {
    assert.throws(() => parseQuery(input), { code: 'invalid_request' }, input)
  }
})

test('cursors order groups, then ids downwards, and decode to where they point', () => {
  const cursors = GROUPS.flatMap((g) => [cursorOf(g.index, 9), cursorOf(g.index, 2)])
  assert.deepEqual(
    [...cursors].sort((a, b) => a - b),
    cursors,
  )
  for (const g of GROUPS) assert.deepEqual(positionOf(cursorOf(g.index, 7)), { group: g.index, idBelow: 7 })
  assert.deepEqual(positionOf(0), { group: 0, idBelow: 2 ** 48 })
  assert.ok(cursorOf(5, 1) <= Number.MAX_SAFE_INTEGER)
})

test('snippet markers avoid the text, and segments keep everything else as text', () => {
  const text = 'has \uE000 and \uE001 inside'
  const m = markersFor(text)
  assert.ok(!text.includes(m.start) && !text.includes(m.end))
  const marked = `has \uE000 and ${m.start}found${m.end} \uE001`
  assert.deepEqual(segmentsOf(marked, m), [
    { text: 'has \uE000 and ', match: false },
    { text: 'found', match: true },
    { text: ' \uE001', match: false },
  ])
})
