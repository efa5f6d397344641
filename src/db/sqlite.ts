import SQLite from 'better-sqlite3'
import { Kysely, SqliteDialect, type SqliteDatabase } from 'kysely'
import type { CommitHook } from './commit-hooks.ts'
import { wrap } from './transaction.ts'
import type { Database } from './types.ts'
import type { Schema } from './schema.ts'
import { SqliteBatches, type ConnectionState } from './sqlite-batches.ts'

export function openSqlite(path: string, hooks: readonly CommitHook[]): Database {
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
  return wrap(db, 'sqlite', { batches: new SqliteBatches(db, state, hooks) })
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
 * used stay the same (test/api/search/search-plan.test.ts and the cursor tests check the plans that matter).
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
