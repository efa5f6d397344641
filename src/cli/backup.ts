import { existsSync, statSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { ConfigError, loadConfig } from '../config.ts'
import { isPostgresUrl, sqlitePath } from '../db/database.ts'
import { checkIntegrity, onlineCopy } from '../db/sqlite-files.ts'
import { withSharedUse } from '../db/use-lock.ts'

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
      'DATABASE_URL is PostgreSQL: back it up with pg_dump -Fc and restore that with npm run restore (docs/operating.md, "Backups and restore")',
    )
  }
  const path = sqlitePath(databaseUrl)
  if (path === ':memory:') throw new ConfigError('DATABASE_URL is sqlite::memory:, which keeps nothing to back up')
  return path
}

/**
 * `npm run backup [-- <file>]`: an online backup of the SQLite database (the server may keep
 * running), checked with PRAGMA integrity_check. Default file: backups/clearing-<UTC time>.sqlite
 * beside the database. The key pepper (KEY_PEPPER, or key-pepper beside the database) is not copied:
 * keep it apart from the backups, once; without it no participant key works after a restore. Nor is
 * the receipt signing key (SIGNING_KEY, or signing-key.pem): without it a restored server signs with a
 * new key, and receipts of the old one verify only once it is listed as retired (docs/verification.md).
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
