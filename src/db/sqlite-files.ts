import SQLite from 'better-sqlite3'
import { existsSync, mkdirSync } from 'node:fs'
import { dirname } from 'node:path'

// SQLite database files as backup and restore handle them (src/cli): checked, copied and settled.

/** PRAGMA integrity_check of a database file; throws unless SQLite answers ok. */
export function checkIntegrity(path: string): void {
  const db = new SQLite(path, { readonly: true, fileMustExist: true })
  try {
    const result = db.pragma('integrity_check', { simple: true })
    if (result !== 'ok') throw new Error(`${path} failed SQLite's integrity check: ${String(result)}`)
  } finally {
    db.close()
  }
}

/**
 * Copies `from` into `to` with SQLite's online backup: consistent while the server keeps writing.
 * The copy is one self-contained file (rollback journal, no -wal or -shm beside it); the server puts
 * its database back into WAL mode when it opens it.
 */
export async function onlineCopy(from: string, to: string): Promise<void> {
  mkdirSync(dirname(to), { recursive: true })
  const source = new SQLite(from, { fileMustExist: true })
  try {
    await source.backup(to)
  } finally {
    source.close()
  }
  const copy = new SQLite(to)
  try {
    copy.pragma('journal_mode = DELETE')
  } finally {
    copy.close()
  }
}

/**
 * Folds the write-ahead log into the database file and removes it (and the shared-memory index), so
 * no -wal or -shm of the old database is left to be read against the new one. A server killed with
 * committed writes in its log leaves them there; this keeps them in the copy kept aside.
 */
export function settle(database: string): void {
  const db = new SQLite(database, { fileMustExist: true })
  try {
    db.pragma('journal_mode = DELETE')
  } finally {
    db.close()
  }
  for (const side of ['-wal', '-shm']) {
    if (existsSync(database + side)) throw new Error(`${database}${side} is still there: something has it open`)
  }
}

/** The migrations a database file ran; undefined when it holds no Clearing database. */
export function migrationsInFile(path: string): string[] | undefined {
  const reader = new SQLite(path, { readonly: true, fileMustExist: true })
  try {
    return reader.prepare('select name from kysely_migration').pluck().all().map(String)
  } catch {
    return undefined
  } finally {
    reader.close()
  }
}
