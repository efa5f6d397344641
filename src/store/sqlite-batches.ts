import { sql } from 'kysely'
import { endBatchDeltas, startBatchDeltas } from './batch-deltas.ts'
import type { Db, Tx } from './database.ts'
import { insertDeltas } from './usage.ts'

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

/**
 * Group commit for SQLite. A commit costs more than the writes it makes durable (WAL frames for every
 * page touched, and a new full-text segment: ~200 of a write's ~300 microseconds here), so the
 * transactions asked for in one turn of the event loop share one, started at the end of that turn
 * (setImmediate) and finished without waiting for another: each runs alone, in order, inside
 * a savepoint that its failure rolls back without touching the others, and every caller learns its
 * outcome only after the shared COMMIT, so nothing is answered before it is durable. SQLite has one
 * writer and better-sqlite3 runs each statement to completion, so this changes no isolation: the
 * transactions were serial before and are serial now. The batch's usage deltas are summed and
 * inserted once, just before its COMMIT (batch-deltas.ts).
 */
export class SqliteBatches {
  private readonly queue: Queued[] = []
  private draining = false
  private readonly db: Db

  constructor(db: Db) {
    this.db = db
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
    try {
      await sql`begin immediate`.execute(connection)
    } catch (err) {
      for (const queued of taken) queued.reject(err)
      throw err
    }
    const done: Array<{ queued: Queued; value: unknown }> = []
    let next = 0
    const deltas = startBatchDeltas(connection)
    try {
      for (; next < taken.length; next++) {
        const queued = taken[next] as Queued
        try {
          await savepoint.execute(connection)
          done.push({ queued, value: await queued.run(connection as unknown as Tx) })
          await release.execute(connection)
          deltas.keep()
        } catch (err) {
          if (done.at(-1)?.queued === queued) done.pop()
          deltas.drop()
          queued.reject(err)
          await rollbackTo.execute(connection)
          await release.execute(connection)
        }
      }
      await insertDeltas(connection, deltas.sums())
      await sql`commit`.execute(connection)
    } catch (err) {
      // The shared transaction is lost: every write in it, and those not yet run, fail together.
      await sql`rollback`.execute(connection).catch(() => {})
      for (const { queued } of done) queued.reject(err)
      for (const queued of taken.slice(next + 1)) queued.reject(err)
      return
    } finally {
      endBatchDeltas(connection)
    }
    for (const { queued, value } of done) queued.resolve(value)
  }
}
