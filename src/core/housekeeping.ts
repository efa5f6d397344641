import type { Logger } from 'pino'
import { reclaimDeltaSpace, rollupUsage } from '../store/usage/write.ts'
import { hasDeltas } from '../store/usage/read.ts'
import type { Runtime } from './pipeline.ts'

const INTERVAL_MS = 1000
/**
 * The deltas' table is vacuumed every tenth pass (reclaimDeltaSpace, store/usage/write.ts), so it holds at
 * most ten seconds of deltas: vacuumed every pass it would stay smaller, but each vacuum rewrites the
 * table's statistics in the catalog, which drops every connection's plans of the writes that name it.
 */
const RECLAIM_EVERY = 10

/**
 * Every second: fold appended usage deltas into their totals (so the summary sums few rows) and
 * publish rows a crashed writer left provisional; every tenth second, reclaim the deltas' space. Each
 * is a cheap no-op when there is nothing to do (the rollup and the sweep first read whether there
 * is, and open no transaction otherwise), safe on every instance at once, and only bounds how long
 * leftovers wait: correctness never depends on them. The timer is unref'd; the returned function
 * stops it and waits for a pass in progress.
 */
export function startHousekeeping(rt: Pick<Runtime, 'database' | 'publisher'>, logger: Logger): () => Promise<void> {
  let running: Promise<void> | undefined
  let passes = 0
  const pass = async () => {
    if (await hasDeltas(rt.database.db)) await rt.database.transaction((tx) => rollupUsage(tx))
    if (++passes % RECLAIM_EVERY === 0) await reclaimDeltaSpace(rt.database.db)
    await rt.publisher.sweep()
  }
  const timer = setInterval(() => {
    if (running) return
    running = pass()
      .catch((err: unknown) => logger.warn({ err }, 'housekeeping pass failed'))
      .finally(() => {
        running = undefined
      })
  }, INTERVAL_MS)
  timer.unref()
  return async () => {
    clearInterval(timer)
    await running
  }
}
