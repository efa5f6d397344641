import SQLite from 'better-sqlite3'
import { existsSync, mkdirSync, statSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { ConfigError, loadConfig } from '../config.ts'
import { isPostgresUrl, sqlitePath } from '../db/database.ts'
import { withSharedUse } from '../store/use-lock.ts'

/** 2026-11-21T10:00:00.000Z -> 20261121T100000Z: sortable, and safe in a file name. */
export const stamp = (now: Date) =>
  now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z')

function sqliteFile(): string {
  const { databaseUrl } = loadConfig()
  if (isPostgresUrl(databaseUrl)) {
    throw new ConfigError(
      'DATABASE_URL is PostgreSQL: back it up with pg_dump -Fc and restore that with npm run restore (README, "Backups")',
    )
  }
  const path = sqlitePath(databaseUrl)
  if (path === ':memory:') throw new ConfigError('DATABASE_URL is sqlite::memory:, which keeps nothing to back up')
  return path
}

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
 * `npm run backup [-- <file>]`: an online backup of the SQLite database (the server may keep
 * running), checked with PRAGMA integrity_check. Default file: backups/clearing-<UTC time>.sqlite
 * beside the database. The key pepper (KEY_PEPPER, or key-pepper beside the database) is not copied:
 * keep it apart from the backups, once; without it no participant key works after a restore.
 */
export async function backupCommand(argv: string[]): Promise<void> {
  const args = argv.filter((arg) => arg !== '--')
  const database = sqliteFile()
  const target = resolve(args[0] ?? join(dirname(database), 'backups', `clearing-${stamp(new Date())}.sqlite`))
  if (existsSync(target)) throw new ConfigError(`${target} exists already; name a new file`)
  // In shared use, like a server: a restore waits for the copy instead of replacing the file under it.
  await withSharedUse(`sqlite:${database}`, () => onlineCopy(database, target))
  checkIntegrity(target)
  console.log(`backup written: ${target} (${statSync(target).size} bytes, integrity ok)`)
}
