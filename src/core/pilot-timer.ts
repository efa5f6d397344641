import type { Logger } from 'pino'
import type { WriteContext } from './action.ts'
import type { Runtime } from './pipeline.ts'
import { findSlot } from '../store/pilot/read.ts'
import { runPilot, type PilotReport } from '../services/pilot/run.ts'
import { dueSlot } from '../services/pilot/slots.ts'

/** How often each instance looks for a due slot; the database claim makes only one act per slot. */
export const PILOT_CHECK_SECONDS = 300

type PilotRuntime = Pick<Runtime, 'database' | 'clock' | 'random' | 'config' | 'services' | 'publisher'>

/** One scheduled pilot run in its own transaction, as the service itself (no caller, no key). */
export async function runScheduledPilot(rt: PilotRuntime): Promise<PilotReport> {
  const report = await rt.database.transaction((db, onCommit) => {
    const ctx: WriteContext = {
      db,
      now: rt.clock.now(),
      random: rt.random,
      config: rt.config,
      participant: undefined,
      clientAddress: undefined,
      onCommit,
      transaction: (fn) => fn(db),
      shared: (_key, read) => read(),
      services: rt.services,
    }
    return runPilot(ctx, 'schedule')
  })
  // Its posts become public (PostgreSQL) at once, as any write's, rather than at the next sweep.
  return (await rt.publisher.answer(report)) as PilotReport
}

/**
 * Checks for a due slot every PILOT_CHECK_SECONDS while PILOT_ENABLED (a read first, so a slot
 * already claimed costs no write transaction). Unref'd; the returned function stops the timer and
 * resolves once a run in progress has finished.
 */
export function startPilotTimer(rt: PilotRuntime, logger: Logger, periodMs = PILOT_CHECK_SECONDS * 1000) {
  if (!rt.config.pilotEnabled) return async () => {}
  let running: Promise<void> | undefined
  const tick = async () => {
    if (await findSlot(rt.database.db, dueSlot(rt.clock.now()).slot)) return
    const report = await runScheduledPilot(rt)
    if (report.outcome !== 'already_done') logger.info({ pilot: summary(report) }, 'pilot ran')
  }
  const timer = setInterval(() => {
    if (running) return
    running = tick()
      .catch((err: unknown) => logger.error({ err }, 'pilot run failed'))
      .finally(() => {
        running = undefined
      })
  }, periodMs)
  timer.unref()
  return async () => {
    clearInterval(timer)
    await running
  }
}

function summary(report: PilotReport) {
  return { slot_start: report.slot_start, outcome: report.outcome, posts: report.posts.map((p) => p.id) }
}
