import type { PostgresPool, PostgresPoolClient } from 'kysely'
import type pg from 'pg'

/**
 * Kysely's pg driver sends every query as an unnamed statement, so PostgreSQL parses and plans each
 * one on every run: most of the database's time on the write path, where each request sends the
 * same few statements. Named, a statement is parsed once per connection and then only bound and run
 * (pg keeps track of what each connection has prepared).
 *
 * The names are bounded: a text gets one while fewer than NAMED_LIMIT texts have one, and only when
 * it takes parameters (a statement without any, like `begin`, costs nothing to parse). Texts that
 * vary with a list's length (`in (...)`, multi-row inserts) thus cannot grow a connection's
 * statements without end. A statement that a migration by another instance invalidated ("cached
 * plan must not change result type") runs unnamed from then on: run again at once outside a
 * transaction, or with its whole transaction retried inside one (isStalePlan, db/database.ts).
 */
const NAMED_LIMIT = 2000
const MAX_TEXT = 8192
const names = new Map<string, string | null>()

function nameOf(text: string, parameters: readonly unknown[]): string | undefined {
  if (parameters.length === 0 || text.length > MAX_TEXT) return undefined
  let name = names.get(text)
  if (name === undefined) {
    if (names.size >= NAMED_LIMIT) return undefined
    name = `clearing_${names.size}`
    names.set(text, name)
  }
  return name ?? undefined
}

/** True for the error of a named statement whose plan a schema change invalidated. */
export function isStalePlan(err: unknown): boolean {
  return (
    typeof err === 'object' &&
    err !== null &&
    (err as { code?: unknown }).code === '0A000' &&
    String((err as { message?: unknown }).message).includes('cached plan')
  )
}

/**
 * Marks a statement as its transaction's last write (`endsTransaction`, db/prepared.ts): the
 * COMMIT goes out right behind it, and the transaction's own COMMIT later sends nothing.
 */
export const ENDS_TRANSACTION = '/* ends transaction */ '

/**
 * Marks a check held back to go out right before the transaction's next statement, in the same write,
 * and be answered with it (`checkedAhead`, db/prepared.ts): it costs no round trip of its own. It must
 * answer an error when what it checks does not hold; that error then fails the next statement as a
 * CheckFailed, and the transaction rolls back. A transaction that sends nothing more never runs it.
 */
export const CHECKED_AHEAD = '/* checked ahead */ '

/** A statement checked ahead failed (see CHECKED_AHEAD): what the transaction assumed does not hold. */
export class CheckFailed extends Error {
  constructor(cause: unknown) {
    super('a check sent ahead of the transaction failed', { cause })
  }
}

const BEGINS = /^\s*(begin|start transaction)\b/i
const ENDS = /^\s*(commit|end|rollback(?!\s+to\b))\b/i

/** Where a connection error outside any query goes (Database.reportConnectionError). */
export type ConnectionError = (err: unknown) => void

interface Wrapped {
  wrapper: PostgresPoolClient
  /** The client is checked out again. */
  lend(): void
}

/** One wrapper per pooled client, so Kysely too keeps one connection object per client. */
const wrappers = new WeakMap<pg.PoolClient, Wrapped>()

function namedClient(client: pg.PoolClient, onError: ConnectionError): PostgresPoolClient {
  let wrapped = wrappers.get(client)
  if (wrapped === undefined) {
    wrapped = wrap(client, onError)
    wrappers.set(client, wrapped)
  } else wrapped.lend()
  return wrapped.wrapper
}

/** What Kysely is answered for a BEGIN held back, or an end of a transaction that never began. */
const nothingSent = () => ({ command: null, rowCount: null, rows: [] })

function wrap(client: pg.PoolClient, onError: ConnectionError): Wrapped {
  let checkedOut = true
  // A connection that breaks while checked out (PostgreSQL restarted, the backend was terminated)
  // fails the queries in flight, and pg also emits 'error' on the client: the pool listens only while
  // the client is idle, and an 'error' nobody listens to ends the process. The pool drops the client
  // when it comes back (it is no longer queryable); the request that held it fails alone. An idle
  // client's error is the pool's to report (db/postgres.ts).
  client.on('error', (err) => {
    if (checkedOut) onError(err)
  })
  // A client is released only after its transaction committed or rolled back (Kysely discards one
  // whose rollback failed), so this is never carried from one checkout to the next.
  let inTransaction = false
  // The BEGIN Kysely asked for and that has not gone out yet (see `send`).
  let heldBegin: string | undefined
  // The transaction committed with its last write; its own COMMIT (or ROLLBACK) has nothing to do.
  let ended = false
  // A check held back to go out with the next statement, and be answered with it (see CHECKED_AHEAD).
  let check: pg.QueryConfig | undefined
  const query = async (text: unknown, parameters?: unknown[]) => {
    if (typeof text !== 'string') {
      // A query object (a cursor, say) goes out as it is, so a held BEGIN goes out alone before it.
      const [begin, ahead] = [heldBegin, check]
      heldBegin = undefined
      check = undefined
      if (begin !== undefined) await client.query(begin)
      if (ahead !== undefined) await checked(ahead)
      return client.query(text as pg.QueryConfig)
    }
    const values = parameters ?? []
    const name = nameOf(text, values)
    if (BEGINS.test(text)) {
      inTransaction = true
      heldBegin = text
      return nothingSent()
    }
    if (ENDS.test(text)) {
      inTransaction = false
      // A transaction rolled back has no use for what a check ahead found.
      if (/^\s*rollback/i.test(text)) check = undefined
      if (ended) {
        ended = false
        return nothingSent()
      }
      // A transaction that sent no statement has nothing to end.
      if (heldBegin !== undefined) {
        heldBegin = undefined
        return nothingSent()
      }
    }
    if (inTransaction && text.startsWith(CHECKED_AHEAD))
      return sendAhead(name ? { name, text, values } : { text, values })
    try {
      return await send(
        name ? { name, text, values } : { text, values },
        inTransaction && text.startsWith(ENDS_TRANSACTION),
      )
    } catch (err) {
      if (!name || !isStalePlan(err)) throw err
      names.set(text, null)
      // Outside a transaction nothing else was undone: run it again, unnamed. Inside, the whole
      // transaction is retried (db/database.ts), also when its last write ended it.
      if (inTransaction || ended) throw err
      return client.query({ text, values })
    }
  }
  /**
   * A held BEGIN goes out right before the transaction's first statement, without waiting for its
   * answer: the pool's clients are in pg's pipeline mode (its `pipeline` option), which sends a query
   * without waiting for the answer to the one before, so a transaction costs one round trip less.
   * PostgreSQL runs them in order, as if sent apart. A transaction's last write takes its COMMIT along
   * the same way (`ending`): one round trip less again, and its row locks are let go as soon as
   * PostgreSQL has run it, not after the answer came back through a busy event loop. Should the
   * statement fail, PostgreSQL answers the COMMIT by rolling back, as the transaction would have.
   */
  const send = async (config: pg.QueryConfig, ending: boolean) => {
    if (heldBegin === undefined && !ending && check === undefined) return client.query(config)
    const sent: Array<Promise<unknown>> = []
    if (heldBegin !== undefined) sent.push(client.query(heldBegin))
    heldBegin = undefined
    if (check !== undefined) sent.push(checked(check))
    check = undefined
    const answer = client.query(config)
    sent.push(answer)
    if (ending) sent.push(client.query('commit'))
    const outcomes = await Promise.allSettled(sent)
    // Once PostgreSQL answered the COMMIT (a failed statement makes it a rollback) the transaction is
    // over. Unanswered (the connection broke), the transaction's own ROLLBACK still goes out: it fails,
    // and Kysely then discards the connection instead of returning it to the pool.
    if (ending && outcomes.at(-1)?.status === 'fulfilled') {
      inTransaction = false
      ended = true
    }
    for (const outcome of outcomes) if (outcome.status === 'rejected') throw outcome.reason
    return answer
  }
  /** Holds a check back: it goes out right before the next statement, in the same write. */
  const sendAhead = (config: pg.QueryConfig) => {
    if (check !== undefined) throw new Error('one check ahead at a time')
    check = config
    return nothingSent()
  }
  const checked = (config: pg.QueryConfig) =>
    client.query(config).catch((err: unknown) => {
      throw new CheckFailed(err)
    })
  const wrapper = {
    query,
    release: (destroy?: boolean) => {
      checkedOut = false
      ended = false
      heldBegin = undefined
      check = undefined
      client.release(destroy)
    },
  }
  return { wrapper: wrapper as unknown as PostgresPoolClient, lend: () => (checkedOut = true) }
}

/**
 * The pool as Kysely's PostgresDialect takes it, with its clients' statements named; `onError` is told
 * of a connection that breaks while checked out.
 */
export function withNamedStatements(pool: pg.Pool, onError: ConnectionError): PostgresPool {
  return {
    options: pool.options,
    connect: async () => namedClient(await pool.connect(), onError),
    end: () => pool.end(),
  }
}
