import { randomBytes } from 'node:crypto'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { ConfigError, type Config } from './config.ts'
import { isPostgresUrl, sqlitePath } from './db/database.ts'

export const PEPPER_FILE = 'key-pepper'

/**
 * The server pepper (services/secrets.ts): KEY_PEPPER when set. Without it, a SQLite deployment keeps a
 * generated one in `key-pepper` beside the database file (mode 0600), outside the database, so a
 * copy of the database alone does not carry it. PostgreSQL deployments run several instances that
 * must agree, so there KEY_PEPPER is required.
 */
export function resolvePepper(config: Config): string {
  if (config.keyPepper !== null) return config.keyPepper
  if (isPostgresUrl(config.databaseUrl)) {
    throw new ConfigError(
      'KEY_PEPPER is required with PostgreSQL (the same secret of at least 32 random characters on every instance)',
    )
  }
  const path = sqlitePath(config.databaseUrl)
  if (path === ':memory:') return randomBytes(32).toString('base64url')
  const file = join(dirname(path), PEPPER_FILE)
  mkdirSync(dirname(path), { recursive: true })
  try {
    // 'wx' fails when the file exists: two processes starting at once both end up reading one pepper.
    writeFileSync(file, randomBytes(32).toString('base64url'), { flag: 'wx', mode: 0o600 })
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
  }
  const pepper = readFileSync(file, 'utf8').trim()
  if (pepper.length < 32) throw new ConfigError(`${file} holds no usable pepper (at least 32 characters)`)
  return pepper
}
