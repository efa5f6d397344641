import SQLite from 'better-sqlite3'
import { Kysely, PostgresDialect, SqliteDialect, type SqliteDatabase, type Transaction } from 'kysely'
import pg from 'pg'
import type { Schema } from './schema.ts'

export type Dialect = 'sqlite' | 'postgres'
export type Db = Kysely<Schema>
export type Tx = Transaction<Schema>

/** Work a transaction schedules for after it commits (alerts, cache invalidation). */
export type OnCommit = (fn: () => void | Promise<void>) => void

export interface Database {
  readonly db: Db
  readonly dialect: Dialect
  /** Runs fn in one transaction, retrying on lock contention; side effects wait for the commit. */
  transaction<T>(fn: (tx: Tx, onCommit: OnCommit) => Promise<T>): Promise<T>
  close(): Promise<void>
}

export function openDatabase(url: string): Database {
  if (url.startsWith('postgres://') || url.startsWith('postgresql://')) return openPostgres(url)
  return openSqlite(sqlitePath(url))
}

export function sqlitePath(url: string): string {
  if (url === 'sqlite::memory:') return ':memory:'
  if (url.startsWith('sqlite:')) return url.slice('sqlite:'.length)
  return url
}

function openSqlite(path: string): Database {
  const raw = new SQLite(path)
  raw.pragma('journal_mode = WAL')
  raw.pragma('synchronous = NORMAL')
  raw.pragma('busy_timeout = 5000')
  raw.pragma('foreign_keys = ON')
  const db = new Kysely<Schema>({ dialect: new SqliteDialect({ database: withStatementCache(raw) }) })
  return wrap(db, 'sqlite')
}

const STATEMENT_CACHE_SIZE = 1000

/**
 * Kysely's SQLite driver prepares every query anew; preparing (and converting the SQL text) cost
 * about a fifth of each request in profiles. The query builder emits the same SQL text for the same
 * query shape, so a bounded cache of prepared statements serves nearly every call.
 */
function withStatementCache(raw: SQLite.Database): SqliteDatabase {
  const cache = new Map<string, SQLite.Statement>()
  return {
    close: () => raw.close(),
    prepare(sql) {
      let statement = cache.get(sql)
      if (!statement) {
        if (cache.size >= STATEMENT_CACHE_SIZE) cache.clear()
        statement = raw.prepare(sql)
        cache.set(sql, statement)
      }
      return statement
    },
  }
}

function openPostgres(url: string): Database {
  const pool = new pg.Pool({ connectionString: url, max: 10 })
  // An idle client's error (server restart) must not crash the process; the next query reconnects.
  pool.on('error', () => {})
  const db = new Kysely<Schema>({ dialect: new PostgresDialect({ pool }) })
  return wrap(db, 'postgres')
}

const RETRYABLE_PG = new Set(['40001', '40P01', '55P03'])
const MAX_ATTEMPTS = 6

function wrap(db: Db, dialect: Dialect): Database {
  return {
    db,
    dialect,
    async transaction(fn) {
      for (let attempt = 1; ; attempt++) {
        const pending: Array<() => void | Promise<void>> = []
        try {
          const result = await db.transaction().execute((tx) => fn(tx, (cb) => pending.push(cb)))
          for (const cb of pending) await cb()
          return result
        } catch (err) {
          if (attempt >= MAX_ATTEMPTS || !isRetryable(err)) throw err
          await new Promise((resolve) => setTimeout(resolve, 5 * attempt + Math.random() * 10))
        }
      }
    },
    close: () => db.destroy(),
  }
}

function errorCode(err: unknown): string | undefined {
  return typeof err === 'object' && err !== null && 'code' in err ? String(err.code) : undefined
}

function isRetryable(err: unknown): boolean {
  const code = errorCode(err)
  return code === 'SQLITE_BUSY' || (code !== undefined && RETRYABLE_PG.has(code))
}

/** One test for "a unique constraint refused this row" across both engines. */
export function isUniqueViolation(err: unknown): boolean {
  const code = errorCode(err)
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY'
}
