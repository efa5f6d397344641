import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import type { FastifyInstance } from 'fastify'
import type { SecretLibrary } from './services/secret-scan/library.ts'
import type { DestinationStream, Logger } from 'pino'
import { buildApp } from './app.ts'
import { baseUrlOf, type Config } from './config.ts'
import { systemClock, systemRandom, type Clock, type RandomSource } from './services/clock.ts'
import type { Runtime } from './core/pipeline.ts'
import { startHousekeeping } from './core/housekeeping.ts'
import { startMaintenanceTimer } from './core/maintenance-timer.ts'
import { startPilotTimer } from './core/pilot-timer.ts'
import { pepperedSecrets } from './services/secrets.ts'
import { createLogger } from './logger.ts'
import { resolvePepper } from './pepper.ts'
import { resolveSigningKey } from './signing-key.ts'
import { Signer } from './services/receipts/signer.ts'
import { isPostgresUrl, sqlitePath, type Database } from './db/database.ts'
import { openStore } from './store/open.ts'
import { holdSharedUse, type UseLock } from './db/use-lock.ts'
import { migrate } from './db/migrate.ts'
import { upgradeLegacyDigests } from './store/participants/secret-digests.ts'
import { checkWalletAddresses } from './wallet/services.ts'

export interface ServerOptions {
  clock?: Clock
  random?: RandomSource
  logDestination?: DestinationStream
  /** The secret scanner library (tests give one that throws or hangs); secretlint by default. */
  secretLibrary?: SecretLibrary
  /** Tests share one opened database between several app instances ("two servers, one database"). */
  database?: Database
}

export interface Server {
  app: FastifyInstance
  runtime: Runtime
  database: Database
  listen(): Promise<string>
  close(): Promise<void>
}

/**
 * Opens the database, migrates it and builds the app. No signals, no process.exit: main.ts wires those.
 * A server that opens the database itself holds it in shared use for its life (db/use-lock.ts), so
 * a restore refuses while it runs. A start that fails on the way closes what it opened.
 */
export async function createServer(config: Config, options: ServerOptions = {}): Promise<Server> {
  await checkWalletAddresses(config)
  const logger = createLogger(config, options.logDestination)
  if (options.database) return serverOn(options.database, { config, options, logger, owned: undefined })
  prepareSqliteDirectory(config.databaseUrl)
  const useLock = await holdSharedUse(config.databaseUrl, (err) =>
    logger.error({ err }, 'the connection holding the database in use was lost: a restore would not see this server'),
  )
  let database: Database | undefined
  try {
    database = openStore(config.databaseUrl)
    return await serverOn(database, { config, options, logger, owned: { useLock } })
  } catch (err) {
    await database?.close().catch(() => {})
    await useLock?.release().catch(() => {})
    throw err
  }
}

interface Setting {
  config: Config
  options: ServerOptions
  logger: Logger
  /** Set when the server opened the database itself: it closes it, and lets go of its use, on close. */
  owned: { useLock: UseLock | undefined } | undefined
}

async function serverOn(database: Database, { config, options, logger, owned }: Setting): Promise<Server> {
  const secrets = pepperedSecrets(resolvePepper(config))
  database.reportError = (err) => logger.error({ err }, 'after-commit task failed')
  database.reportConnectionError = (err) => logger.warn({ err }, 'database connection error')
  await migrate(database.db)
  const upgraded = await upgradeLegacyDigests(database.db, secrets.upgrade)
  if (upgraded > 0) logger.info({ upgraded }, 'stored secret digests upgraded to the peppered form')
  let baseUrl = baseUrlOf(config)
  const { app, runtime } = await buildApp({
    database,
    config,
    clock: options.clock ?? systemClock,
    random: options.random ?? systemRandom,
    logger,
    secrets,
    secretLibrary: options.secretLibrary,
    signer: new Signer(resolveSigningKey(config), config.signingKeysRetired),
    get baseUrl() {
      return baseUrl
    },
  })
  const stopMaintenance = startMaintenanceTimer(runtime, logger)
  const stopHousekeeping = startHousekeeping(runtime, logger)
  const stopPilot = startPilotTimer(runtime, logger)
  return {
    app,
    runtime,
    database,
    async listen() {
      const address = await app.listen({ port: config.port, host: config.host })
      // With PORT=0 the real port is known only now; absolute URLs must use it.
      if (config.publicBaseUrl === null) baseUrl = baseUrlOf(config, Number(new URL(address).port))
      runtime.services.baseUrl = baseUrl
      return address
    },
    async close() {
      stopMaintenance()
      await stopHousekeeping()
      await stopPilot()
      await app.close()
      await database.settled()
      if (owned) {
        await database.close()
        await owned.useLock?.release()
      }
      logger.flush()
    },
  }
}

function prepareSqliteDirectory(url: string): void {
  if (isPostgresUrl(url)) return
  const path = sqlitePath(url)
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true })
}
