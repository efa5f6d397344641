/**
 * The server's memory upkeep, once a second while it runs: the C heap's free pages go back to the
 * system (memory-trim.ts), and once the server has gone quiet after work, it hands back what the work
 * grew: V8 is asked for one collection that reduces its memory (and main.ts adds the executable's
 * pages, executable-pages.ts).
 *
 * V8 sizes its heap for the load it last saw and keeps it: under the bench's reads at 1M
 * contributions the old generation ran at 60-78 MB committed with 20-32 MB more of freed pages
 * pooled for reuse, and the young generation at its full 16 MB. V8 has a memory reducer that hands
 * this back when allocation stops, but in Node it did not act in any run we watched: every 8 s
 * `--trace-memory-reducer` said "high alloc" and waited again, in the server and in a fifteen-line
 * script alike, however long the process had been idle; a server left idle for 30 s after a burst
 * held its 214 MB throughout. A memory-reducing collection ("last-resort": full collections until
 * nothing more is freed, the pool released, the young generation shrunk) does what the reducer would
 * have, and the trim after it returns the C memory that the collected objects held.
 *
 * Such a collection blocks the event loop for some tens of milliseconds, so it runs only where no
 * request should feel it: after QUIET_SECONDS in a row in which the main thread ran less than
 * QUIET_USE of the time (mainThreadUse), and only once per quiet spell (a second busier than BUSY_USE
 * starts the next one). V8's own reducer waits 8 s after its last collection before it looks.
 */
import { performance } from 'node:perf_hooks'
import type { Trim } from './memory-trim.ts'

export const UPKEEP_INTERVAL_MS = 1000
/** Seconds in a row the main thread must have been nearly idle before the collection runs. */
export const QUIET_SECONDS = 5
/** Below this share of a second on a CPU, the main thread was quiet (an idle server's own ticks run 0.4-0.9%). */
export const QUIET_USE = 0.02
/** From this share of a second in use, the server has been working: the next quiet spell collects. */
export const BUSY_USE = 0.05

export type Collect = () => void

/**
 * V8's memory-reducing collection, where node was started with `--expose-gc` (as `npm start` does),
 * or undefined. The global `gc` the flag defines is taken away (it cannot be deleted, only
 * overwritten), so no dependency can call it.
 */
export function takeCollector(): Collect | undefined {
  const gc = globalThis.gc
  if (typeof gc !== 'function') return undefined
  globalThis.gc = undefined
  return () => gc({ type: 'major', flavor: 'last-resort' })
}

/**
 * The share of the time since the previous call that the main thread spent running on a CPU.
 *
 * Not the event loop's utilization, which counts the wall-clock time of each callback: on a machine
 * whose cores other processes keep busy, an idle server's own ticks (housekeeping's pass, the trim)
 * stretch while they wait for a core or a disk. Idle beside three busy loops on two cores its event
 * loop was in use 1.0-2.7% of each second, now and then over QUIET_USE, and each time the quiet spell
 * started over; its main thread ran 0.4-0.9% of each second. With the event loop's use, three of four
 * servers had not collected 7 s after the reads of two whole bench runs; with this, both did in the next.
 * Where Node has no per-thread CPU time (process.threadCpuUsage came in 23.9) the event loop's use stands in.
 */
export function mainThreadUse(): () => number {
  if (typeof process.threadCpuUsage !== 'function') return eventLoopUse()
  const cpuMs = () => {
    const { user, system } = process.threadCpuUsage()
    return (user + system) / 1000
  }
  let lastCpu = cpuMs()
  let lastAt = performance.now()
  return () => {
    const cpu = cpuMs()
    const at = performance.now()
    const use = (cpu - lastCpu) / Math.max(at - lastAt, 1)
    lastCpu = cpu
    lastAt = at
    return use
  }
}

/** The share of the time since the previous call that the event loop was busy. */
export function eventLoopUse(): () => number {
  let last = performance.eventLoopUtilization()
  return () => {
    const now = performance.eventLoopUtilization()
    const use = performance.eventLoopUtilization(now, last).utilization
    last = now
    return use
  }
}

export interface Upkeep {
  trim?: Trim | undefined
  /** What runs once per quiet spell after work: V8's memory-reducing collection, and what else main.ts adds. */
  handBack?: (() => void) | undefined
  /** The server's use of its main thread since the last call (mainThreadUse), injected by tests. */
  threadUse?: () => number
}

/** Runs the upkeep every UPKEEP_INTERVAL_MS until the returned stop function runs; the timer keeps no process alive. */
export function startMemoryUpkeep({ trim, handBack, threadUse = mainThreadUse() }: Upkeep): () => void {
  // Without malloc_trim and nothing to hand back once quiet there is nothing to keep up.
  if (!trim && !handBack) return () => {}
  let worked = false
  let quiet = 0
  const timer = setInterval(() => {
    const use = threadUse()
    if (use >= BUSY_USE) worked = true
    quiet = use < QUIET_USE ? quiet + 1 : 0
    if (handBack && worked && quiet >= QUIET_SECONDS) {
      handBack()
      // The collection's own time is not the server's work.
      threadUse()
      worked = false
    }
    trim?.()
  }, UPKEEP_INTERVAL_MS)
  timer.unref()
  return () => clearInterval(timer)
}
