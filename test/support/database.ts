import { randomBytes } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'

/**
 * Each test file gets a database of its own: a fresh in-memory SQLite, or, when the suite runs on
 * PostgreSQL (TEST_DIALECT=postgres), a fresh schema in TEST_DATABASE_URL dropped at the end.
 */
export const dialect: 'sqlite' | 'postgres' = process.env.TEST_DIALECT === 'postgres' ? 'postgres' : 'sqlite'

export interface TestDatabase {
  url: string
  drop(): Promise<void>
}

/** `file: true` gives SQLite a temporary file, so several connections (servers) can share it. */
export async function freshDatabase(options: { file?: boolean } = {}): Promise<TestDatabase> {
  if (dialect === 'sqlite') {
    if (!options.file) return { url: 'sqlite::memory:', drop: async () => {} }
    const dir = await mkdtemp(join(tmpdir(), 'clearing-test-'))
    return { url: `sqlite:${join(dir, 'db.sqlite')}`, drop: () => rm(dir, { recursive: true, force: true }) }
  }
  const base = process.env.TEST_DATABASE_URL
  if (!base) throw new Error('TEST_DIALECT=postgres needs TEST_DATABASE_URL')
  const schema = `t_${randomBytes(6).toString('hex')}`
  await adminQuery(base, `create schema ${schema}`)
  const separator = base.includes('?') ? '&' : '?'
  return {
    url: `${base}${separator}options=${encodeURIComponent(`-c search_path=${schema}`)}`,
    drop: () => adminQuery(base, `drop schema if exists ${schema} cascade`),
  }
}

async function adminQuery(url: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    await client.query(text)
  } finally {
    await client.end()
  }
}
