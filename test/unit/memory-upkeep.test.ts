import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { test, type TestContext } from 'node:test'
import {
  BUSY_USE,
  eventLoopUse,
  mainThreadUse,
  QUIET_SECONDS,
  QUIET_USE,
  startMemoryUpkeep,
  UPKEEP_INTERVAL_MS,
} from '../../src/memory-upkeep.ts'

/** The upkeep under mocked timers, its main thread's use each second set by the test. */
function upkeep(t: TestContext) {
  t.mock.timers.enable({ apis: ['setInterval'] })
  const counts = { trims: 0, collections: 0 }
  let use = 0
  const stop = startMemoryUpkeep({
    trim: () => counts.trims++,
    handBack: () => counts.collections++,
    threadUse: () => use,
  })
  const seconds = (n: number, share: number) => {
    use = share
    t.mock.timers.tick(UPKEEP_INTERVAL_MS * n)
  }
  return { counts, seconds, stop }
}

test('the trim runs once every interval, from the start until stopped', (t) => {
  const { counts, seconds, stop } = upkeep(t)
  t.mock.timers.tick(UPKEEP_INTERVAL_MS - 1)
  assert.equal(counts.trims, 0)
  t.mock.timers.tick(1)
  assert.equal(counts.trims, 1)
  seconds(3, BUSY_USE)
  assert.equal(counts.trims, 4)
  stop()
  seconds(5, 0)
  assert.equal(counts.trims, 4, 'no trim after stop')
})

test('without a trim and a collector no timer runs', (t) => {
  t.mock.timers.enable({ apis: ['setInterval'] })
  let readings = 0
  startMemoryUpkeep({ threadUse: () => readings++ })
  t.mock.timers.tick(UPKEEP_INTERVAL_MS * 5)
  assert.equal(readings, 0)
})

test('V8 collects once the server is quiet after work, once per quiet spell', (t) => {
  const { counts, seconds, stop } = upkeep(t)
  seconds(QUIET_SECONDS * 3, 0)
  assert.equal(counts.collections, 0, 'a server that has not worked since it started keeps its heap')
  seconds(1, BUSY_USE)
  seconds(QUIET_SECONDS - 1, QUIET_USE / 2)
  assert.equal(counts.collections, 0, 'not before QUIET_SECONDS in a row')
  seconds(1, QUIET_USE / 2)
  assert.equal(counts.collections, 1)
  seconds(QUIET_SECONDS * 3, 0)
  assert.equal(counts.collections, 1, 'one collection per quiet spell')
  seconds(1, BUSY_USE)
  seconds(QUIET_SECONDS - 1, 0)
  seconds(1, QUIET_USE)
  assert.equal(counts.collections, 1, 'a second at QUIET_USE is not quiet: the count starts again')
  seconds(QUIET_SECONDS, 0)
  assert.equal(counts.collections, 2)
  seconds(1, BUSY_USE)
  stop()
  seconds(QUIET_SECONDS * 2, 0)
  assert.equal(counts.collections, 2, 'no collection after stop')
})

test('a second between quiet and busy neither counts as work nor as quiet', (t) => {
  const { counts, seconds } = upkeep(t)
  seconds(QUIET_SECONDS * 2, (QUIET_USE + BUSY_USE) / 2)
  seconds(QUIET_SECONDS * 2, 0)
  assert.equal(counts.collections, 0, 'light steady use is not work to recover from')
})

/**
 * The quiet rule counts the time the main thread ran, not the wall-clock time of its callbacks: a
 * callback that waits for a core other processes hold (here: one that sleeps) is not the server's work.
 */
test(
  'time the main thread spends off a CPU is not use; time on one is',
  { skip: !process.threadCpuUsage },
  async () => {
    const thread = mainThreadUse()
    const loop = eventLoopUse()
    await new Promise<void>((resolve) =>
      setTimeout(() => {
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 400)
        setImmediate(resolve)
      }, 1),
    )
    const slept = thread()
    assert.ok(loop() > 0.5, 'the event loop counts a blocked callback as busy')
    assert.ok(slept < BUSY_USE, `a thread asleep for 400 ms used ${(slept * 100).toFixed(2)}% of it`)
    const started = process.threadCpuUsage()
    let spun = 0
    while (process.threadCpuUsage(started).user < 50_000) spun++
    const used = thread()
    assert.ok(spun > 0 && used > BUSY_USE, `a thread that ran 50 ms of CPU used ${(used * 100).toFixed(1)}%`)
  },
)

/**
 * A node process (with --expose-gc, as `npm start` runs it) that grows its heap with garbage, then
 * takes the collector: prints its RSS before and after one collection, and whether the global gc
 * was left to other code. A regular full collection frees the garbage but keeps its pages (RSS 218
 * -> 202 MB here); the memory-reducing one hands them back (259 -> 59 MB).
 */
const GROWN = `
import { takeCollector } from ${JSON.stringify(new URL('../../src/memory-upkeep.ts', import.meta.url).href)}
const collect = takeCollector()
if (!collect) {
  console.log(JSON.stringify({ collector: false }))
  process.exit(0)
}
let kept = []
for (let i = 0; i < 2_000_000; i++) {
  kept.push({ text: 'item ' + i, list: [i] })
  if (kept.length === 200_000) kept = []
}
kept = []
const held = () => process.memoryUsage.rss() / 1048576
const before = held()
collect()
console.log(JSON.stringify({ collector: true, before, after: held(), global: typeof globalThis.gc }))
`

test('the collection hands back the heap V8 grew, and no other code keeps the global gc', () => {
  const run = (flags: string[]) =>
    JSON.parse(
      execFileSync(process.execPath, [...flags, '--input-type=module', '-e', GROWN], { encoding: 'utf8' }),
    ) as {
      collector: boolean
      before: number
      after: number
      global: string
    }
  const { collector, before, after, global } = run(['--expose-gc'])
  assert.ok(collector)
  assert.equal(global, 'undefined')
  assert.ok(after < before / 2, `RSS ${before.toFixed(1)} MB before the collection, ${after.toFixed(1)} MB after`)
  assert.equal(run([]).collector, false, 'without --expose-gc there is no collector')
})
