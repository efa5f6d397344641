import { existsSync } from 'node:fs'
import { ConfigError, loadConfig } from './config.ts'

// Settings may also come from a .env file in the working directory (.env.example lists them); a
// variable of the real environment wins over the file.
if (existsSync('.env')) process.loadEnvFile('.env')

/** Each command loads only what it uses: `npm run backup` need not load the whole server. */
const COMMANDS: Record<string, (args: string[]) => Promise<void>> = {
  serve,
  migrate: migrateOnly,
  operator: async (args) => (await import('./cli/operator.ts')).operatorCommand(args),
  maintenance: async () => (await import('./cli/maintenance.ts')).maintenanceCommand(),
  backup: async (args) => (await import('./cli/backup.ts')).backupCommand(args),
  restore: async (args) => (await import('./cli/restore.ts')).restoreCommand(args),
  verify: async (args) => (await import('./cli/verify.ts')).verifyCommand(args),
}

async function serve(): Promise<void> {
  const { createServer } = await import('./server.ts')
  // Between listening and the signal handlers below nothing may wait, or a SIGTERM in that gap would
  // kill the process instead of closing it.
  const server = await createServer(loadConfig())
  // A port already taken (or any other failure to listen) ends the process with exit code 1: the
  // database's connections, the timers and the database's use lock would otherwise keep it alive.
  await server.listen().catch(async (err: unknown) => {
    await server.close()
    throw err
  })
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
  const { openStore } = await import('./store/open.ts')
  const { migrate, migrationReport } = await import('./db/migrate.ts')
  const { withSharedUse } = await import('./db/use-lock.ts')
  const { databaseUrl } = loadConfig()
  await withSharedUse(databaseUrl, async () => {
    const database = openStore(databaseUrl)
    try {
      console.log(migrationReport(await migrate(database.db)))
    } finally {
      await database.close()
    }
  })
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
