/** Databases for benchmark runs: a fresh SQLite file, or a PostgreSQL database created for the run. */
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import pg from 'pg'

export const WORK = join(process.cwd(), '.bench')
export const PG_BASE = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432'
export const PEPPER = 'benchmark-pepper-0123456789abcdefghijklmnop'

export type BenchDialect = 'sqlite' | 'postgres'

/** The URL of the database of the dialect named `name`, as freshDatabase makes it. */
export const databaseUrl = (dialect: BenchDialect, name: string): string =>
  dialect === 'sqlite' ? `sqlite:${join(WORK, `${name}.sqlite`)}` : `${PG_BASE}/${name}`

/** The URL of an empty database of the dialect named `name` (any earlier one of that name is dropped). */
export async function freshDatabase(dialect: BenchDialect, name: string): Promise<string> {
  if (dialect === 'sqlite') {
    const file = join(WORK, `${name}.sqlite`)
    for (const suffix of ['', '-wal', '-shm']) rmSync(file + suffix, { force: true })
    return databaseUrl(dialect, name)
  }
  const admin = new pg.Client({ connectionString: `${PG_BASE}/postgres` })
  await admin.connect()
  await admin.query(`drop database if exists ${name} with (force)`)
  await admin.query(`create database ${name}`)
  await admin.end()
  return databaseUrl(dialect, name)
}
