import { sql } from 'kysely'
import { closeScope, openScope, type CommitHook, type CommitScope } from './commit-hooks.ts'
import type { Db, Tx, WriteTx } from './types.ts'

/** Transactions past this many wait for the next batch: bounds how long the first waits for its commit. */
const MAX_BATCH = 64

interface Queued {
  run: (tx: Tx) => Promise<unknown>
  resolve: (value: unknown) => void
  reject: (err: unknown) => void
}

const savepoint = sql`savepoint clearing_write`
const release = sql`release clearing_write`
const rollbackTo = sql`rollback to clearing_write`

/** A write failed after changing rows, in a batch run without savepoints: it must run again with them. */
const REPLAY = Symbol('replay')

/** What the batches read off the connection itself (better-sqlite3), between a batch's statements. */
export interface ConnectionState {
  /** Rows inserted, updated or deleted since the connection opened, by triggers too (total_changes()). */
  changes(): number
  /** A transaction is open: SQLite ends one of its own accord on some errors (a full disk, an I/O error). */
  inTransaction(): boolean
}

/**
 * Group commit for SQLite. A commit costs more than the writes it makes durable (WAL frames for every
 * page touched, and a new full-text segment: ~200 of a write's ~300 microseconds here), so the
 * transactions asked for in one turn of the event loop share one, started at the end of that turn
 * (setImmediate) and finished without waiting for another: each runs alone, in order, and its failure
 * rolls back its own changes without touching the others, and every caller learns its outcome only
 * after the shared COMMIT, so nothing is answered before it is durable. SQLite has one writer and
 * better-sqlite3 runs each statement to completion, so this changes no isolation: the transactions
 * were serial before and are serial now. The features' commit hooks (commit-hooks.ts) run once for the
 * batch, just before its COMMIT, over what its kept writes collected.
 *
 * A batch first runs its transactions one after the other without savepoints: a savepoint around each
 * (its bookkeeping, a copy of every page the write changes, its release) cost a sixth of a contribute
 * (focused bench: 3,684 with, 4,354/s without). A transaction that fails having changed no row is
 * refused alone, as a savepoint would have done (most refusals come before any write: a spacing, a
 * version or a key check). One that fails after changing rows makes the batch start over: rolled back
 * whole, then run again with each transaction in a savepoint of its own, so that only its changes go.
 * Each transaction must therefore be safe to run twice, which every transaction here already is (the
 * database retries whole transactions on lock contention; db/database.ts).
 */
export class SqliteBatches {
  private readonly queue: Queued[] = []
  private draining = false
  private readonly db: Db
  private readonly connection: ConnectionState
  private readonly hooks: readonly CommitHook[]

  constructor(db: Db, connection: ConnectionState, hooks: readonly CommitHook[]) {
    this.db = db
    this.connection = connection
    this.hooks = hooks
  }

  run<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ run: fn, resolve: resolve as (value: unknown) => void, reject })
      this.schedule()
    })
  }

  /** The batch starts once this turn's requests have all been read and have queued theirs. */
  private schedule(): void {
    if (this.draining || this.queue.length === 0) return
    this.draining = true
    setImmediate(() => void this.drain())
  }

  private async drain(): Promise<void> {
    try {
      await this.db.connection().execute(async (connection) => {
        while (this.queue.length > 0) await this.batch(connection, this.queue.splice(0, MAX_BATCH))
      })
    } catch (err) {
      // BEGIN failed (another process held the write lock past busy_timeout) or the database closed:
      // whoever is waiting learns it, and the caller's retry rule applies.
      for (const queued of this.queue.splice(0)) queued.reject(err)
    } finally {
      this.draining = false
      this.schedule()
    }
  }

  /**
   * Only what was queued when it began: holding the write lock into another turn would stall every
   * other writer of the file (better-sqlite3 waits for a lock synchronously, its whole process with it).
   */
  private async batch(connection: Db, taken: Queued[]): Promise<void> {
    if ((await this.attempt(connection, taken, false)) === REPLAY) await this.attempt(connection, taken, true)
  }

  /**
   * One transaction for the batch, each write in a savepoint or (`savepoints` false) not: then a write
   * that fails after changing rows rolls everything back and answers REPLAY, with no caller told anything.
   */
  private async attempt(connection: Db, taken: Queued[], savepoints: boolean): Promise<typeof REPLAY | undefined> {
    try {
      await sql`begin immediate`.execute(connection)
    } catch (err) {
      for (const queued of taken) queued.reject(err)
      throw err
    }
    const done: Array<{ queued: Queued; value: unknown }> = []
    const refused: Array<{ queued: Queued; err: unknown }> = []
    let next = 0
    const scope = openScope(connection, this.hooks)
    try {
      for (; next < taken.length; next++) {
        const queued = taken[next] as Queued
        const outcome = await (savepoints
          ? this.inSavepoint(connection, queued, scope)
          : this.alone(connection, queued, scope))
        if (outcome === REPLAY) {
          await sql`rollback`.execute(connection).catch(() => {})
          return REPLAY
        }
        if ('err' in outcome) refused.push({ queued, err: outcome.err })
        else done.push({ queued, value: outcome.value })
      }
      // The connection is inside the batch's BEGIN IMMEDIATE: the hooks write in that transaction.
      await scope.finish(connection as unknown as WriteTx)
      await sql`commit`.execute(connection)
    } catch (err) {
      // The shared transaction is lost: every write in it, and those not yet run, fail together.
      await sql`rollback`.execute(connection).catch(() => {})
      for (const { queued } of done) queued.reject(err)
      for (const queued of taken.slice(next)) queued.reject(err)
      for (const { queued, err: own } of refused) queued.reject(own)
      return undefined
    } finally {
      closeScope(connection)
    }
    for (const { queued, err } of refused) queued.reject(err)
    for (const { queued, value } of done) queued.resolve(value)
    return undefined
  }

  private async alone(
    connection: Db,
    queued: Queued,
    scope: CommitScope,
  ): Promise<{ value: unknown } | { err: unknown } | typeof REPLAY> {
    const before = this.connection.changes()
    try {
      const value = await queued.run(connection as unknown as Tx)
      scope.keep()
      return { value }
    } catch (err) {
      scope.drop()
      // Without a transaction the batch is lost, as a savepoint's rollback would have found.
      if (!this.connection.inTransaction()) throw err
      return this.connection.changes() === before ? { err } : REPLAY
    }
  }

  private async inSavepoint(
    connection: Db,
    queued: Queued,
    scope: CommitScope,
  ): Promise<{ value: unknown } | { err: unknown }> {
    await savepoint.execute(connection)
    try {
      const value = await queued.run(connection as unknown as Tx)
      await release.execute(connection)
      scope.keep()
      return { value }
    } catch (err) {
      scope.drop()
      await rollbackTo.execute(connection)
      await release.execute(connection)
      return { err }
    }
  }
}
