import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { test } from 'node:test'
import { chooseMarking } from '../../src/gc-marking.ts'

/**
 * A process that chooses its marking for a database, then keeps a rolling window of live objects
 * large enough for V8 to run several full collections. Prints what chooseMarking answered; V8's
 * --trace-gc lines tell how each full collection marked: an incremental one reports the steps it
 * took "since start of marking", one marked in a single pause does not.
 */
const script = (url: string) => `
import { chooseMarking } from ${JSON.stringify(new URL('../../src/gc-marking.ts', import.meta.url).href)}
console.log('chose ' + chooseMarking(${JSON.stringify(url)}))
let window = []
for (let round = 0; round < 300; round++) {
  window.push(Array.from({ length: 20000 }, (_, i) => ({ round, i })))
  if (window.length > 30) window.shift()
}
`

function fullCollections(url: string): { chose: string | undefined; incremental: number; inOnePause: number } {
  const out = execFileSync(process.execPath, ['--trace-gc', '--input-type=module', '-e', script(url)], {
    encoding: 'utf8',
    env: { ...process.env, NODE_OPTIONS: '' },
  })
  // A cycle already running when the choice is made (loading the modules grows the heap) finishes
  // as it began: only the collections after the choice count.
  const marks = out
    .slice(out.indexOf('chose '))
    .split('\n')
    .filter((line) => line.includes('Mark-Compact'))
  const incremental = marks.filter((line) => line.includes('since start of marking')).length
  return { chose: /chose (\w+)/.exec(out)?.[1], incremental, inOnePause: marks.length - incremental }
}

test('on SQLite every full collection marks in one pause', () => {
  const { chose, incremental, inOnePause } = fullCollections('sqlite:./data/clearing.sqlite')
  assert.equal(chose, 'true')
  assert.equal(incremental, 0)
  assert.ok(inOnePause >= 2, `${inOnePause} full collections`)
})

test('on PostgreSQL V8 keeps marking incrementally', () => {
  const { chose, incremental } = fullCollections('postgres://postgres@127.0.0.1:5432/clearing')
  assert.equal(chose, 'false')
  assert.ok(incremental >= 1, 'at least one full collection marked incrementally')
})

test('a marking flag given to node wins over the choice', () => {
  // Given, the choice changes nothing (so this process's own marking is left alone).
  assert.equal(chooseMarking('sqlite::memory:', ['--incremental-marking']), false)
  assert.equal(chooseMarking('sqlite::memory:', ['--no-incremental-marking']), false)
})
