import { existsSync } from 'node:fs'
import type { FastifyBaseLogger } from 'fastify'
import { ConfigError, loadConfig } from './config.ts'
import type { ReleaseExecutable } from './executable-pages.ts'
import type { Collect } from './memory-upkeep.ts'

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
}

async function serve(): Promise<void> {
  // Taken before the server's modules load, so none of them finds the global gc.
  const { QUIET_SECONDS, startMemoryUpkeep, takeCollector, UPKEEP_INTERVAL_MS } = await import('./memory-upkeep.ts')
  const collect = takeCollector()
  const { createServer } = await import('./server.ts')
  const { loadMallocTrim } = await import('./memory-trim.ts')
  const { loadExecutableRelease } = await import('./executable-pages.ts')
  // Loaded before listening: between listening and the signal handlers below nothing may wait, or a
  // SIGTERM in that gap would kill the process instead of closing it.
  const [server, trim, releaseExecutable] = await Promise.all([
    createServer(loadConfig()),
    loadMallocTrim(),
    loadExecutableRelease(),
  ])
  const log = server.app.log
  // Starting leaves V8's heap grown with what loading and compiling the modules and schemas left
  // behind, and an idle server never has the quiet after work that hands it back: 122-135 MB idle
  // against 101-111 MB once collected, for ~55 ms (the heap under load grows to the same either way).
  // It also reads much of the executable that serving never reads again (executable-pages.ts).
  handingBack(log, 'started', collect, releaseExecutable)?.()
  trim?.()
  // A port already taken (or any other failure to listen) ends the process with exit code 1: the
  // database's connections, the timers and the database's use lock would otherwise keep it alive.
  await server.listen().catch(async (err: unknown) => {
    await server.close()
    throw err
  })
  const stopUpkeep = startMemoryUpkeep({
    trim,
    handBack: handingBack(log, 'quiet after work', collect, releaseExecutable),
  })
  log.debug(
    trim
      ? `freed C heap memory goes back to the system every ${UPKEEP_INTERVAL_MS} ms (malloc_trim)`
      : 'malloc_trim is not available here: freed C heap memory stays resident',
  )
  log.debug(
    collect
      ? `after ${QUIET_SECONDS} quiet seconds V8 collects to reduce its memory`
      : 'node runs without --expose-gc: V8 keeps the heap it grew under load when the server goes quiet',
  )
  log.debug(
    releaseExecutable
      ? 'pages of the executable read only while starting or working are unmapped at start and once quiet (madvise)'
      : 'madvise is not available here: every page of the executable the server has read stays resident',
  )
  let stopping = false
  const stop = async (signal: string) => {
    if (stopping) return
    stopping = true
    server.app.log.info({ signal }, 'shutting down: finishing in-flight requests')
    stopUpkeep()
    // app.close() stops accepting and waits for in-flight requests; then the database closes.
    await server.close()
    process.exitCode = 0
  }
  process.once('SIGTERM', () => void stop('SIGTERM'))
  process.once('SIGINT', () => void stop('SIGINT'))
}

/**
 * What the server hands back at start and once quiet after work, with a debug line of when, what it
 * took and what it gave back; undefined where it can do neither.
 */
function handingBack(
  log: FastifyBaseLogger,
  occasion: string,
  collect: Collect | undefined,
  releaseExecutable: ReleaseExecutable | undefined,
): (() => void) | undefined {
  if (!collect && !releaseExecutable) return undefined
  return () => {
    const rssMb = () => Math.round(process.memoryUsage.rss() / 1048576)
    const before = rssMb()
    const started = performance.now()
    collect?.()
    const executableMb = releaseExecutable && Math.round(releaseExecutable() / 1024)
    const ms = Math.round(performance.now() - started)
    const done = [collect && 'V8 collected to reduce its memory', releaseExecutable && 'executable pages unmapped']
    log.debug(
      { ms, rssMb: { before, after: rssMb() }, executableMb },
      `${occasion}: ${done.filter(Boolean).join(', ')}`,
    )
  }
}

async function migrateOnly(): Promise<void> {
  const { openDatabase } = await import('./store/database.ts')
  const { migrate } = await import('./store/migrations/index.ts')
  const { withSharedUse } = await import('./store/use-lock.ts')
  const { databaseUrl } = loadConfig()
  await withSharedUse(databaseUrl, async () => {
    const database = openDatabase(databaseUrl)
    try {
      await migrate(database.db)
      console.log('migrations are up to date')
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
