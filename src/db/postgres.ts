import { Kysely, PostgresDialect } from 'kysely'
import pg from 'pg'
import { wrap } from './transaction.ts'
import type { Database } from './types.ts'
import { withNamedStatements, type ConnectionError } from './pg-statements.ts'
import type { Schema } from './schema.ts'

// Ids, cursors and counts are bigint columns; every value is below 2^53 (inputs are validated so),
// so they are read as exact JavaScript numbers rather than strings.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value))

const POOL_MAX = 10

export function openPostgres(url: string): Database {
  // Both pools' connection errors go where the server points the database's.
  const onError: ConnectionError = (err) => database.reportConnectionError(err)
  const pool = postgresPool(url, POOL_MAX, onError)
  const priority = wrap(kyselyOver(postgresPool(url, 1, onError, PUBLISHER_SETTINGS), onError), 'postgres')
  const database = wrap(kyselyOver(pool, onError), 'postgres', {
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max: POOL_MAX }),
    priority,
  })
  return database
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

function postgresPool(url: string, max: number, onError: ConnectionError, settings = SESSION_SETTINGS): pg.Pool {
  // Pipeline mode: a transaction's BEGIN travels with its first statement (db/pg-statements.ts).
  const pool = new pg.Pool({ connectionString: url, max, pipeline: true })
  // An idle client's error (server restart) must not crash the process; the pool drops the client and
  // the next query connects anew.
  pool.on('error', onError)
  pool.on('connect', (client) => {
    // Queued ahead of anything the pool's user asks of this connection. Each is ignored where it fails:
    // an engine without the setting (the wire-compatible ones DESIGN.md names) runs as it did.
    for (const setting of settings) client.query(setting).catch(() => {})
  })
  return pool
}

const kyselyOver = (pool: pg.Pool, onError: ConnectionError) =>
  new Kysely<Schema>({ dialect: new PostgresDialect({ pool: withNamedStatements(pool, onError) }) })
