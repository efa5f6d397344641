import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { test } from 'node:test'
import { loadMallocTrim } from '../../src/memory-trim.ts'
import { glibc } from '../support/platform.ts'

/**
 * A process that leaves holes in its C heap: blocks above half of Buffer.poolSize each get memory of
 * their own from malloc, and freeing every other one leaves free memory between live blocks, which
 * free() cannot give back. Prints its RSS (MB) before and after one trim.
 */
const FRAGMENTED = `
import { loadMallocTrim } from ${JSON.stringify(new URL('../../src/memory-trim.ts', import.meta.url).href)}
const rss = () => process.memoryUsage.rss() / 1048576
const trim = await loadMallocTrim()
let blocks = Array.from({ length: 20000 }, (_, i) => Buffer.alloc(4096 + (i % 7) * 1024))
blocks = blocks.filter((_, i) => i % 2 === 1)
for (let i = 0; i < 3; i++) {
  gc({ type: 'major' })
  await new Promise((resolve) => setTimeout(resolve, 20))
}
const before = rss()
trim()
console.log(JSON.stringify({ before, after: rss(), kept: blocks.length }))
`

test('malloc_trim gives the free memory in the middle of the C heap back to the system (glibc)', async () => {
  const trim = await loadMallocTrim()
  if (!glibc) {
    assert.equal(trim, undefined, 'no glibc, no malloc_trim: the server runs without it')
    return
  }
  assert.ok(trim, `glibc ${glibc} has malloc_trim`)
  const out = execFileSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', FRAGMENTED], {
    encoding: 'utf8',
    env: { ...process.env, MALLOC_ARENA_MAX: '1' },
  })
  const { before, after } = JSON.parse(out) as { before: number; after: number }
  assert.ok(before - after >= 8, `RSS ${before.toFixed(1)} MB before the trim, ${after.toFixed(1)} MB after`)
})
