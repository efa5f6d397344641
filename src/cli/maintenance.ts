import { loadConfig } from '../config.ts'
import { runMaintenance } from '../core/maintenance.ts'
import { openDatabase } from '../store/database.ts'
import { migrate } from '../store/migrations/index.ts'

/** `npm run maintenance`: one pass directly against DATABASE_URL; safe beside running servers. */
export async function maintenanceCommand(): Promise<void> {
  const database = openDatabase(loadConfig().databaseUrl)
  try {
    await migrate(database.db)
    const report = await database.transaction((tx) => runMaintenance(tx, new Date()))
    console.log(JSON.stringify(report, null, 2))
  } finally {
    await database.close()
  }
}
