import SQLite from 'better-sqlite3'
import { Kysely, PostgresDialect, SqliteDialect, type SqliteDatabase, type Transaction } from 'kysely'
import pg from 'pg'
import { isStalePlan, withNamedStatements } from './pg-statements.ts'
import { SqliteBatches, type ConnectionState } from './sqlite-batches.ts'
import { Background } from './background.ts'
import type { Schema } from './schema.ts'

export type Dialect = 'sqlite' | 'postgres'
export type Db = Kysely<Schema>
export type Tx = Transaction<Schema>

/** Work a transaction schedules for after it commits (alert delivery, ...). */
export type OnCommit = (fn: () => void | Promise<void>) => void

export interface Database {
  readonly db: Db
  readonly dialect: Dialect
  /**
   * Runs fn in one transaction, retrying the whole of it on lock contention, serialization failure
   * or a unique violation (a concurrent writer of the same key: the retry reads what it wrote).
   * Work given to onCommit runs once, after the final commit, in the background (see afterCommit).
   */
  transaction<T>(fn: (tx: Tx, onCommit: OnCommit) => Promise<T>): Promise<T>
  /** Starts committed work in the background: failures are logged, never returned to a caller. */
  afterCommit(tasks: ReadonlyArray<() => void | Promise<void>>): void
  /** Resolves once every background task has finished. */
  settled(): Promise<void>
  /** Where background failures go (the server points it at its logger). */
  reportError: (err: unknown) => void
  /** Told of every retried transaction, with the error code that caused it (metrics). */
  onRetry: (reason: string) => void
  /**
   * Where short serialized work that writers wait for runs (the id publisher, core/publisher.ts): on
   * PostgreSQL a connection of its own, so that work never queues behind those writers for a pooled
   * connection; on SQLite the database itself.
   */
  readonly priority: Database
  /** PostgreSQL pool figures (metrics); undefined on SQLite, which has one connection. */
  poolStats(): { total: number; idle: number; waiting: number; max: number } | undefined
  close(): Promise<void>
}

export const SCHEMES = ['sqlite:', 'postgres://', 'postgresql://'] as const

export function isPostgresUrl(url: string): boolean {
  return url.startsWith('postgres://') || url.startsWith('postgresql://')
}

export function openDatabase(url: string): Database {
  if (isPostgresUrl(url)) return openPostgres(url)
  if (!url.startsWith('sqlite:')) throw new Error(`DATABASE_URL must start with one of ${SCHEMES.join(', ')}`)
  return openSqlite(sqlitePath(url))
}

export function sqlitePath(url: string): string {
  if (url === 'sqlite::memory:') return ':memory:'
  return url.slice('sqlite:'.length)
}

function openSqlite(path: string): Database {
  const raw = new SQLite(path)
  raw.pragma('journal_mode = WAL')
  raw.pragma('synchronous = NORMAL')
  raw.pragma('busy_timeout = 5000')
  raw.pragma('foreign_keys = ON')
  // Erased, rejected and expired text is overwritten on disk, not left in free pages of the file.
  raw.pragma('secure_delete = ON')
  // A savepoint (a group commit's second run, db/sqlite-batches.ts) and a statement SQLite may have to
  // undo keep the prior content of every page they change; past 64 KiB SQLite spilled it into a
  // temporary file created in /var/tmp (with a savepoint per write: an openat, pwrites and a close per
  // write, 6,559 pwrites a second at ~3,000 writes/s). In memory, it is dropped when they end. Sorts and
  // temporary tables are kept in memory too: the serving path has none beyond a page of rows (indexes
  // answer its orders), and a migration indexing a large table sorts in memory.
  raw.pragma('temp_store = memory')
  // 8 MB of pages instead of better-sqlite3's 16: the file's pages stay in the system's cache, from
  // which a page SQLite no longer holds is read back in microseconds. At 1M contributions the server's
  // RSS after the bench's reads was 205-226 MB against 213-238 (alternated); cache-missed newest pages
  // 3,900 against 3,922/s (four alternated pairs, within the noise), threads 9,089 against 10,512/s.
  raw.pragma('cache_size = -8000')
  const db = new Kysely<Schema>({ dialect: new SqliteDialect({ database: withStatementCache(raw) }) })
  const totalChanges = raw.prepare('select total_changes()').pluck()
  const state: ConnectionState = { changes: () => Number(totalChanges.get()), inTransaction: () => raw.inTransaction }
  return wrap(db, 'sqlite', { batches: new SqliteBatches(db, state) })
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
    prepare(text) {
      // Transactions take the write lock at BEGIN: a deferred one that upgrades later gets SQLITE_BUSY
      // at once when another process writes, where IMMEDIATE waits (busy_timeout) like any writer.
      let statement = cache.get(text)
      if (!statement) {
        if (cache.size >= STATEMENT_CACHE_SIZE) cache.clear()
        statement = raw.prepare(text === 'begin' ? 'begin immediate' : withoutValuePlanning(text))
        cache.set(text, statement)
      }
      return statement
    },
  }
}

/**
 * better-sqlite3 builds SQLite with STAT4, and SQLite then plans a statement again on every run
 * whose bound value is compared with an indexed column or limits the result ("the statement will be
 * automatically recompiled ... following any change to the bindings", sqlite3_prepare_v2): 15 to 90
 * microseconds per statement on this project's hot paths, more than running it. `+?` passes the
 * same value (unary plus changes no value of any type) without the planner looking into it, so each
 * statement keeps the one plan it was prepared with, as a PostgreSQL generic plan does; the indexes
 * used stay the same (test/http/search-plan.test.ts and the cursor tests check the plans that matter).
 */
export function withoutValuePlanning(sql: string): string {
  let out = ''
  let quote: string | undefined
  for (const char of sql) {
    if (quote !== undefined) {
      if (char === quote) quote = undefined
    } else if (char === "'" || char === '"' || char === '`') quote = char
    else if (char === '?') {
      out += '+?'
      continue
    }
    out += char
  }
  return out
}

// Ids, cursors and counts are bigint columns; every value is below 2^53 (inputs are validated so),
// so they are read as exact JavaScript numbers rather than strings.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value))

const POOL_MAX = 10

function openPostgres(url: string): Database {
  const pool = postgresPool(url, POOL_MAX)
  const priority = wrap(kyselyOver(postgresPool(url, 1, PUBLISHER_SETTINGS)), 'postgres')
  return wrap(kyselyOver(pool), 'postgres', {
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max: POOL_MAX }),
    priority,
  })
}

/**
 * PostgreSQL sizes a Memoize node's hash table by its row estimate, and the pages joined to their
 * authors estimate a third of the table (`id > $1` in a reusable plan) or every match (search): each
 * history poll at 1M contributions built and dropped a table sized for ~300,000 authors to look up 26
 * (pgbench, generic plan: 0.126 ms a page with Memoize, 0.094 without; one-word search, EXPLAIN
 * ANALYZE: 0.76 ms with, 0.07 without). Pages hold at most 101 rows, where remembering author
 * look-ups saves nothing.
 */
const SESSION_SETTINGS = ['set enable_memoize = off']

/**
 * The publisher's connection runs one statement over and over (store/public-ids.ts): it finds the
 * rows it publishes by primary key and moves them, their threads and their drafts, a handful of rows
 * by index each time. PostgreSQL keeps the reusable plan it makes from the tables' sizes during the
 * first runs, and on a new database those are nearly empty: the plan scanned contributions whole and
 * hash-joined them, and kept doing so as the table grew, until an ANALYZE, which never comes where
 * autovacuum is off (as on the machine CI runs on). Writes into an empty database: a run read 10,169
 * rows to publish 17 (2.44 ms a run, 0.76 ms with these settings, as after an ANALYZE), contribute
 * 1,158 and 1,316 -> 1,243 and 1,415/s (two alternated pairs). No plan this connection needs scans a
 * table or hashes a join, so it is told not to.
 */
const PUBLISHER_SETTINGS = [
  ...SESSION_SETTINGS,
  'set enable_seqscan = off',
  'set enable_hashjoin = off',
  'set enable_mergejoin = off',
]

function postgresPool(url: string, max: number, settings = SESSION_SETTINGS): pg.Pool {
  // Pipeline mode: a transaction's BEGIN travels with its first statement (db/pg-statements.ts).
  const pool = new pg.Pool({ connectionString: url, max, pipeline: true })
  // An idle client's error (server restart) must not crash the process; the next query reconnects.
  pool.on('error', () => {})
  pool.on('connect', (client) => {
    // Queued ahead of anything the pool's user asks of this connection. Each is ignored where it fails:
    // an engine without the setting (the wire-compatible ones DESIGN.md names) runs as it did.
    for (const setting of settings) client.query(setting).catch(() => {})
  })
  return pool
}

const kyselyOver = (pool: pg.Pool) =>
  new Kysely<Schema>({ dialect: new PostgresDialect({ pool: withNamedStatements(pool) }) })

const RETRYABLE_PG = new Set(['40001', '40P01', '55P03'])
const MAX_ATTEMPTS = 6

function wrap(
  db: Db,
  dialect: Dialect,
  {
    poolStats = () => undefined,
    priority,
    batches,
  }: { poolStats?: Database['poolStats']; priority?: Database; batches?: SqliteBatches } = {},
): Database {
  const database: Database = {
    db,
    dialect,
    reportError: (err) => console.error('after-commit task failed', err),
    onRetry: () => {},
    poolStats,
    get priority() {
      return priority ?? database
    },
    async transaction(fn) {
      for (let attempt = 1; ; attempt++) {
        // Only the attempt that commits may schedule anything: a retried attempt's work is dropped.
        const pending: Array<() => void | Promise<void>> = []
        let result: Awaited<ReturnType<typeof fn>>
        try {
          // A group commit may run a transaction twice (db/sqlite-batches.ts): only the last run schedules.
          const attempt = (tx: Tx) => {
            pending.length = 0
            return fn(tx, (cb) => pending.push(cb))
          }
          result = await (batches ? batches.run(attempt) : db.transaction().execute(attempt))
        } catch (err) {
          if (attempt >= MAX_ATTEMPTS || !isRetryable(err)) throw err
          database.onRetry(errorCode(err) ?? 'unknown')
          await new Promise((resolve) => setTimeout(resolve, 5 * attempt + Math.random() * 10))
          continue
        }
        database.afterCommit(pending)
        return result
      }
    },
    afterCommit: (tasks) => {
      for (const task of tasks) background.start(task)
    },
    settled: () => background.settled(),
    async close() {
      await background.settled()
      await db.destroy()
      await priority?.close()
    },
  }
  if (priority) {
    // Its failures and retries are this database's: logged and counted where the server points these.
    priority.reportError = (err) => database.reportError(err)
    priority.onRetry = (reason) => database.onRetry(reason)
  }
  const background = new Background((err) => database.reportError(err))
  return database
}

function errorCode(err: unknown): string | undefined {
  return typeof err === 'object' && err !== null && 'code' in err ? String(err.code) : undefined
}

function isRetryable(err: unknown): boolean {
  const code = errorCode(err)
  return (
    code === 'SQLITE_BUSY' ||
    (code !== undefined && RETRYABLE_PG.has(code)) ||
    isUniqueViolation(err) ||
    isStalePlan(err)
  )
}

/** One test for "a unique constraint refused this row" across both engines. */
export function isUniqueViolation(err: unknown): boolean {
  const code = errorCode(err)
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY'
}
