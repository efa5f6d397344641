import { PostgresAdapter, type SelectQueryBuilder } from 'kysely'
import type { Db } from './database.ts'

export const isPostgres = (db: Db): boolean => db.getExecutor().adapter instanceof PostgresAdapter

/**
 * Row lock for read-then-write sequences. PostgreSQL needs FOR UPDATE so concurrent instances
 * serialize on the row; SQLite has one writer per database, so its transactions are serial already.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function lockRow<Q extends SelectQueryBuilder<any, any, any>>(db: Db, query: Q): Q {
  return (isPostgres(db) ? query.forUpdate() : query) as Q
}
