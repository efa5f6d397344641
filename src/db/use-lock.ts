import SQLite from 'better-sqlite3'
import pg from 'pg'
import { isPostgresUrl, sqlitePath } from './database.ts'

/**
 * Who is using a database, told apart by a lock that dies with its holder (kill -9 included): every
 * server and every command that opens the database holds it shared for its whole life; a restore
 * takes it alone, and only when nobody else holds it. SQLite: a read transaction (fcntl lock) on a
 * small side file `<database>-lock`, in rollback-journal mode, where a shared lock is SQLite's SHARED
 * and a sole one its EXCLUSIVE. PostgreSQL: a session-level advisory lock of the current schema, on a
 * connection of its own.
 */
export interface UseLock {
  release(): Promise<void>
}

/** Thrown when the lock is held the other way: a restore running, or someone using the database. */
export class DatabaseInUse extends Error {}

/** How long a starting server or command waits for a restore to finish before giving up. */
const SHARED_WAIT_MS = 5000

/** Any constant of Clearing's own; the second key is the schema's, so each schema has its lock. */
const LOCK_CLASS = 0x436c72

export const sqliteLockFile = (path: string) => `${path}-lock`

/**
 * Holds the database in shared use; undefined for an in-memory SQLite database, which nobody shares.
 * onLost hears of a PostgreSQL lock lost with its connection (a database restart): a restore would no
 * longer see this holder.
 */
export async function holdSharedUse(url: string, onLost?: (err: Error) => void): Promise<UseLock | undefined> {
  if (isPostgresUrl(url)) return postgresLock(url, 'shared', onLost)
  const path = sqlitePath(url)
  return path === ':memory:' ? undefined : sqliteLock(path, 'shared')
}

/** Runs fn with the database in shared use (the commands that open it: migrate, maintenance, backup). */
export async function withSharedUse<T>(url: string, fn: () => Promise<T>): Promise<T> {
  const lock = await holdSharedUse(url)
  try {
    return await fn()
  } finally {
    await lock?.release()
  }
}

/** Takes the database for the caller alone, or throws DatabaseInUse at once. */
export async function takeSoleUse(url: string): Promise<UseLock> {
  if (isPostgresUrl(url)) return postgresLock(url, 'sole')
  return sqliteLock(sqlitePath(url), 'sole')
}

function sqliteLock(path: string, mode: 'shared' | 'sole'): UseLock {
  const file = sqliteLockFile(path)
  const lock = new SQLite(file)
  try {
    lock.pragma(`busy_timeout = ${mode === 'shared' ? SHARED_WAIT_MS : 0}`)
    if (mode === 'sole') lock.exec('begin exclusive')
    else {
      // A deferred transaction takes SHARED at its first read and keeps it until it ends.
      lock.exec('begin')
      lock.prepare('select count(*) from sqlite_schema').get()
    }
  } catch (err) {
    lock.close()
    if ((err as { code?: string }).code !== 'SQLITE_BUSY') throw err
    throw inUse(mode, path, `it holds ${file}`)
  }
  return {
    release: async () => {
      lock.close()
    },
  }
}

async function postgresLock(url: string, mode: 'shared' | 'sole', onLost?: (err: Error) => void): Promise<UseLock> {
  const client = new pg.Client({ connectionString: url })
  client.on('error', (err) => onLost?.(err))
  await client.connect()
  try {
    const key = `${LOCK_CLASS}, hashtext(current_schema())`
    if (mode === 'sole') {
      const { rows } = await client.query<{ taken: boolean }>(`select pg_try_advisory_lock(${key}) as taken`)
      if (!rows[0]?.taken) throw inUse(mode, 'this PostgreSQL database', 'each holds an advisory lock on it')
    } else {
      await client.query(`set lock_timeout = ${SHARED_WAIT_MS}`)
      await client.query(`select pg_advisory_lock_shared(${key})`).catch((err: unknown) => {
        if ((err as { code?: string }).code !== '55P03') throw err
        throw inUse(mode, 'this PostgreSQL database', 'it holds an advisory lock on it')
      })
    }
  } catch (err) {
    await client.end().catch(() => {})
    throw err
  }
  return { release: () => client.end() }
}

function inUse(mode: 'shared' | 'sole', what: string, how: string): DatabaseInUse {
  return new DatabaseInUse(
    mode === 'sole'
      ? `a Clearing server or command is using ${what} (${how}): stop every server first, then restore`
      : `a restore is running on ${what} (${how}): start again once it has finished`,
  )
}
