import { execFile } from 'node:child_process'
import { closeSync, existsSync, fsyncSync, openSync, renameSync, rmSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { promisify } from 'node:util'
import { ConfigError, loadConfig } from '../config.ts'
import { isPostgresUrl, sqlitePath } from '../db/database.ts'
import { MIGRATIONS } from '../db/migrations/index.ts'
import { migrationsInPostgres } from '../db/postgres-files.ts'
import { checkIntegrity, migrationsInFile, onlineCopy, settle } from '../db/sqlite-files.ts'
import { takeSoleUse } from '../db/use-lock.ts'
import { stamp } from './backup.ts'

const run = promisify(execFile)

/**
 * `npm run restore -- <file>`: refuses at once, touching nothing, while a server or another command
 * uses the database (db/use-lock.ts), and keeps the database to itself until it has finished, so
 * no server starts half-way. The backup is checked before anything changes; then the database is
 * replaced whole, or not at all. SQLite: a file from `npm run backup`; PostgreSQL: a `pg_dump -Fc`
 * archive, restored by pg_restore in one transaction.
 */
export async function restoreCommand(argv: string[]): Promise<void> {
  const [file] = argv.filter((arg) => arg !== '--')
  if (!file) throw new ConfigError('name the backup to restore: npm run restore -- backups/clearing-....sqlite')
  const { databaseUrl } = loadConfig()
  if (!isPostgresUrl(databaseUrl) && sqlitePath(databaseUrl) === ':memory:') {
    throw new ConfigError('DATABASE_URL is sqlite::memory:, which keeps nothing to restore into')
  }
  const lock = await takeSoleUse(databaseUrl)
  try {
    if (isPostgresUrl(databaseUrl)) await restorePostgres(resolve(file), databaseUrl)
    else await restoreSqlite(resolve(file), sqlitePath(databaseUrl))
  } finally {
    await lock.release()
  }
}

async function restoreSqlite(backup: string, database: string): Promise<void> {
  if (!existsSync(backup)) throw new ConfigError(`${backup} does not exist`)
  checkIntegrity(backup)
  checkMigrations(backup, migrationsInFile(backup))
  if (existsSync(database)) {
    settle(database)
    const kept = `${database}.before-restore-${stamp(new Date())}`
    await onlineCopy(database, kept)
    console.log(`current database kept as ${kept}`)
  }
  // Copied beside the database, checked and synced, then renamed over it: a crash leaves either
  // database whole, never a mix.
  const incoming = `${database}.restoring-${stamp(new Date())}`
  try {
    await onlineCopy(backup, incoming)
    checkIntegrity(incoming)
    syncPath(incoming)
    renameSync(incoming, database)
    syncPath(dirname(database))
  } finally {
    rmSync(incoming, { force: true })
  }
  console.log(`restored ${backup} into ${database}; start the server with npm start`)
}

function syncPath(path: string): void {
  const fd = openSync(path, 'r')
  try {
    fsyncSync(fd)
  } finally {
    closeSync(fd)
  }
}

async function restorePostgres(backup: string, url: string): Promise<void> {
  if (!existsSync(backup)) throw new ConfigError(`${backup} does not exist`)
  // pg_restore reads the archive whole here: a truncated or foreign file fails before any change.
  const archived = await pgRestore(['--data-only', '--table=kysely_migration', '-f', '-', backup])
  const copied = /^COPY [^\n]*kysely_migration [^\n]*FROM stdin;\n([\s\S]*?)^\\\.$/m.exec(archived)?.[1]
  const names =
    copied === undefined
      ? undefined
      : copied
          .split('\n')
          .filter(Boolean)
          .map((line) => line.split('\t')[0] ?? '')
  checkMigrations(backup, names)
  const present = await migrationsInPostgres(url)
  const unknown = present.filter((name) => !names?.includes(name))
  if (unknown.length > 0) {
    throw new ConfigError(
      `the database has migrations the backup lacks (${unknown.join(', ')}): restore it into an empty database`,
    )
  }
  // One transaction: every object of the archive is dropped and made again, or nothing changes.
  await pgRestore([
    '--single-transaction',
    '--exit-on-error',
    '--clean',
    '--if-exists',
    '--no-owner',
    '-d',
    url,
    backup,
  ])
  console.log(`restored ${backup} into the database; start the servers with npm start`)
}

async function pgRestore(args: string[]): Promise<string> {
  try {
    const { stdout } = await run('pg_restore', args, { maxBuffer: 64 * 1024 * 1024 })
    return stdout
  } catch (err) {
    const { code, stderr } = err as { code?: string | number; stderr?: string }
    if (code === 'ENOENT') throw new ConfigError("pg_restore is not installed: install PostgreSQL's client tools")
    throw new Error(`pg_restore failed: ${(stderr ?? String(err)).trim().split('\n')[0]}`, { cause: err })
  }
}

/** The backup must be Clearing's and no newer than this code: every migration it ran is known here. */
function checkMigrations(backup: string, names: string[] | undefined): void {
  if (!names || names.length === 0) throw new ConfigError(`${backup} holds no Clearing database (no migrations)`)
  const unknown = names.filter((name) => !(name in MIGRATIONS))
  if (unknown.length > 0) {
    throw new ConfigError(`${backup} was made by a newer Clearing (migrations ${unknown.join(', ')}): upgrade first`)
  }
}
