import { loadConfig, type Config } from '../config.ts'
import { createAlerts } from '../services/alerts.ts'
import { systemClock } from '../services/clock.ts'
import { runMaintenance } from '../services/maintenance.ts'
import { createLogger } from '../logger.ts'
import { openStore } from '../store/open.ts'
import { migrate } from '../db/migrate.ts'
import { reclaimErasedSpace } from '../store/retention.ts'
import { withSharedUse } from '../db/use-lock.ts'

/**
 * `npm run maintenance`: one pass directly against DATABASE_URL, then a retry of queued operator
 * alerts. Safe beside running servers: every step is a conditional update or delete.
 */
export async function maintenanceCommand(): Promise<void> {
  const config = loadConfig()
  await withSharedUse(config.databaseUrl, () => maintain(config))
}

async function maintain(config: Config): Promise<void> {
  const database = openStore(config.databaseUrl)
  try {
    await migrate(database.db)
    const report = await database.transaction((tx) => runMaintenance(tx, systemClock.now()))
    await reclaimErasedSpace(database.db)
    const logger = createLogger(config, process.stderr)
    const alertsSent = await createAlerts({ database, config, logger, clock: systemClock }).deliver()
    console.log(JSON.stringify({ ...report, alerts_sent: alertsSent }, null, 2))
  } finally {
    await database.close()
  }
}
