import type { Kysely, Transaction } from 'kysely'
import type { Schema } from './schema.ts'

export type Dialect = 'sqlite' | 'postgres'
export type Db = Kysely<Schema>
export type Tx = Transaction<Schema>

declare const writeTransaction: unique symbol
/**
 * The handle a write needs: a transaction given by Database.transaction, the only place that makes
 * one (db/transaction.ts). Store writes take it, so a write outside a transaction does not compile.
 * A type brand only: at run time it is the transaction itself.
 */
export type WriteTx = Tx & { readonly [writeTransaction]: true }

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
  transaction<T>(fn: (tx: WriteTx, onCommit: OnCommit) => Promise<T>): Promise<T>
  /** Starts committed work in the background: failures are logged, never returned to a caller. */
  afterCommit(tasks: ReadonlyArray<() => void | Promise<void>>): void
  /** Resolves once every background task has finished. */
  settled(): Promise<void>
  /** Where background failures go (the server points it at its logger). */
  reportError: (err: unknown) => void
  /**
   * Where a connection error outside any query goes (PostgreSQL: an idle pooled connection lost, or a
   * checked-out one broken); the server points it at its logger, at warn.
   */
  reportConnectionError: (err: unknown) => void
  /** Told of every retried transaction, with the error code that caused it (metrics). */
  onRetry: (reason: string) => void
  /**
   * Where short serialized work that writers wait for runs (the id publisher, store/publication.ts): on
   * PostgreSQL a connection of its own, so that work never queues behind those writers for a pooled
   * connection; on SQLite the database itself.
   */
  readonly priority: Database
  /** PostgreSQL pool figures (metrics); undefined on SQLite, which has one connection. */
  poolStats(): { total: number; idle: number; waiting: number; max: number } | undefined
  close(): Promise<void>
}
