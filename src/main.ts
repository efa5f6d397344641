import { maintenanceCommand } from './cli/maintenance.ts'
import { operatorCommand } from './cli/operator.ts'
import { ConfigError, loadConfig } from './config.ts'
import { createServer } from './server.ts'
import { openDatabase } from './store/database.ts'
import { migrate } from './store/migrations/index.ts'

const COMMANDS: Record<string, (args: string[]) => Promise<void>> = {
  serve,
  migrate: migrateOnly,
  operator: operatorCommand,
  maintenance: maintenanceCommand,
}

async function serve(): Promise<void> {
  const server = await createServer(loadConfig())
  await server.listen()
  let stopping = false
  const stop = async (signal: string) => {
    if (stopping) return
    stopping = true
    server.app.log.info({ signal }, 'shutting down: finishing in-flight requests')
    // app.close() stops accepting and waits for in-flight requests; then the database closes.
    await server.close()
    process.exitCode = 0
  }
  process.once('SIGTERM', () => void stop('SIGTERM'))
  process.once('SIGINT', () => void stop('SIGINT'))
}

async function migrateOnly(): Promise<void> {
  const database = openDatabase(loadConfig().databaseUrl)
  try {
    await migrate(database.db)
    console.log('migrations are up to date')
  } finally {
    await database.close()
  }
}

async function main(): Promise<void> {
  const [command = 'serve', ...args] = process.argv.slice(2)
  const run = COMMANDS[command]
  if (!run) {
    console.error(`unknown command "${command}"; use one of: ${Object.keys(COMMANDS).join(', ')}`)
    process.exitCode = 2
    return
  }
  await run(args)
}

main().catch((err: unknown) => {
  console.error(err instanceof ConfigError ? err.message : err instanceof Error ? `error: ${err.message}` : String(err))
  process.exitCode = 1
})
