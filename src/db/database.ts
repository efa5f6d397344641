import type { CommitHook } from './commit-hooks.ts'
import { openPostgres } from './postgres.ts'
import { openSqlite } from './sqlite.ts'
import type { Database } from './types.ts'

export type { Database, Db, Dialect, OnCommit, Tx, WriteTx } from './types.ts'
export { isUniqueViolation } from './transaction.ts'

export const SCHEMES = ['sqlite:', 'postgres://', 'postgresql://'] as const

export function isPostgresUrl(url: string): boolean {
  return url.startsWith('postgres://') || url.startsWith('postgresql://')
}

export interface OpenOptions {
  /** Work features do before each shared COMMIT (commit-hooks.ts); the store registers its own. */
  hooks?: readonly CommitHook[]
}

export function openDatabase(url: string, { hooks = [] }: OpenOptions = {}): Database {
  if (isPostgresUrl(url)) return openPostgres(url)
  if (!url.startsWith('sqlite:')) throw new Error(`DATABASE_URL must start with one of ${SCHEMES.join(', ')}`)
  return openSqlite(sqlitePath(url), hooks)
}

export function sqlitePath(url: string): string {
  if (url === 'sqlite::memory:') return ':memory:'
  return url.slice('sqlite:'.length)
}
