import type { Logger } from 'pino'
import { runMaintenance } from '../services/maintenance.ts'
import type { Runtime } from './pipeline.ts'

/**
 * One maintenance pass in its own transaction, a retry of any queued operator alerts, then erased text
 * cleared out of the database's files (outside the transaction, as VACUUM must be), and the hash
 * chains extended over what was published since they were last read, so no read has far to catch up.
 */
export async function maintainOnce(rt: Pick<Runtime, 'database' | 'clock' | 'services'>) {
  const report = await rt.database.transaction((tx) => runMaintenance(tx, rt.clock.now()))
  await rt.services.alerts.deliver()
  await rt.services.reclaimErasedSpace()
  await rt.services.chain.heads()
  return report
}

/**
 * Runs maintenance every MAINTENANCE_INTERVAL_SECONDS inside the server (0 disables). The timer is
 * unref'd so it never holds the process open; the returned function stops it on close.
 */
export function startMaintenanceTimer(rt: Runtime, logger: Logger): () => void {
  const seconds = rt.config.maintenanceIntervalSeconds
  if (seconds === 0) return () => {}
  let running = false
  const timer = setInterval(() => {
    if (running) return
    running = true
    maintainOnce(rt)
      .then((report) => logger.info({ maintenance: report }, 'maintenance ran'))
      .catch((err: unknown) => logger.error({ err }, 'maintenance failed'))
      .finally(() => {
        running = false
      })
  }, seconds * 1000)
  timer.unref()
  return () => clearInterval(timer)
}
