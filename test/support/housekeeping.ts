import type { TestContext } from 'node:test'
import pino from 'pino'
import { startHousekeeping } from '../../src/core/housekeeping.ts'
import { Publisher } from '../../src/store/publication.ts'
import type { Database } from '../../src/db/database.ts'

/**
 * Housekeeping on mocked timers, driven one pass at a time: `pass()` ticks its timer once and
 * resolves when that pass is over. `stop()` stops it.
 */
export function housekeepingPasses(t: TestContext, database: Database) {
  // The sweep is a pass's last step: each pass's end is awaited there.
  let passEnded: () => void = () => {}
  const publisher = new Publisher(database)
  const sweep = publisher.sweep.bind(publisher)
  publisher.sweep = async () => {
    await sweep()
    passEnded()
  }
  t.mock.timers.enable({ apis: ['setInterval'] })
  const stop = startHousekeeping({ database, publisher }, pino({ level: 'silent' }))
  const pass = async () => {
    const ended = new Promise<void>((resolve) => (passEnded = resolve))
    t.mock.timers.tick(1000)
    await ended
    // The pass is over once its promise has settled too: a tick before that would be skipped.
    await new Promise(setImmediate)
  }
  return { pass, stop }
}
