import { Background } from './background.ts'
import { isStalePlan } from './pg-statements.ts'
import type { SqliteBatches } from './sqlite-batches.ts'
import type { Database, Db, Dialect, Tx, WriteTx } from './types.ts'

const RETRYABLE_PG = new Set(['40001', '40P01', '55P03'])
const MAX_ATTEMPTS = 6

export function wrap(
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
    reportConnectionError: (err) => console.warn('database connection error', err),
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
            return fn(tx as WriteTx, (cb) => pending.push(cb))
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
