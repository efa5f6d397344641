import { randomBytes } from 'node:crypto'
import pg from 'pg'
import { sql } from 'kysely'
import type { Db } from '../../src/db/database.ts'
import { isPostgres } from '../../src/db/dialect.ts'
import { migrate } from '../../src/db/migrate.ts'
import { openStore } from '../../src/store/open.ts'
import { adminQuery } from '../../test/support/database.ts'
import type { Tables } from './shape.ts'

/**
 * The tables a fresh database holds once every migration ran, as Kysely's introspection reports them.
 * `alter` runs after the migrations, so a test can make the schema drift.
 */
export async function migratedTables(url: string, alter?: (db: Db) => Promise<void>): Promise<Tables> {
  const database = openStore(url)
  try {
    await migrate(database.db)
    await alter?.(database.db)
    return await introspect(database.db)
  } finally {
    await database.close()
  }
}

async function introspect(db: Db): Promise<Tables> {
  // PostgreSQL lists the tables of every schema: only the current one is ours.
  const schema = isPostgres(db)
    ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]?.schema
    : undefined
  const dialect = isPostgres(db) ? 'postgres' : 'sqlite'
  const tables: Tables = new Map()
  for (const table of await db.introspection.getTables()) {
    if (table.isView || (schema !== undefined && table.schema !== schema) || SEARCH_TABLE[dialect].test(table.name))
      continue
    const keys = dialect === 'sqlite' ? await sqlitePrimaryKey(db, table.name) : new Set<string>()
    const columns = new Map(
      table.columns
        .filter((column) => !SEARCH_COLUMN[dialect].test(column.name))
        .map((column) => [column.name, column.isNullable && !keys.has(column.name)]),
    )
    tables.set(table.name, { columns, source: dialect })
  }
  return tables
}

/**
 * The search index of each dialect (migration 010) is reached by raw SQL in src/store/search, never
 * through the table types: SQLite's FTS5 tables with their shadow tables and staging table, and
 * PostgreSQL's generated search_tsv columns.
 */
const SEARCH_TABLE = { sqlite: /^(\w+_fts(_(config|content|data|docsize|idx))?|search_staged)$/, postgres: /^$/ }
const SEARCH_COLUMN = { sqlite: /^$/, postgres: /^search_tsv$/ }

/**
 * SQLite lets a primary key other than INTEGER hold null unless it says NOT NULL (a quirk kept for
 * compatibility); the store never writes one, so a key column counts as not null.
 */
async function sqlitePrimaryKey(db: Db, table: string): Promise<Set<string>> {
  const { rows } = await sql<{ name: string; pk: number }>`select name, pk from pragma_table_info(${table})`.execute(db)
  return new Set(rows.filter((row) => row.pk > 0).map((row) => row.name))
}

/**
 * A PostgreSQL database of its own for `fn`, created from `url` and dropped after: nothing another
 * process migrates in its own schema at the same time is disturbed.
 */
export async function withScratchDatabase<T>(url: string, fn: (url: string) => Promise<T>): Promise<T> {
  const name = `clearing_tables_${randomBytes(6).toString('hex')}`
  await adminQuery(url, `create database ${name}`)
  try {
    const scratch = new URL(url)
    scratch.pathname = `/${name}`
    return await fn(scratch.href)
  } finally {
    await adminQuery(url, `drop database if exists ${name} with (force)`)
  }
}

/** The PostgreSQL to check against: TEST_DATABASE_URL, else a local server on 5432 if one answers. */
export async function postgresUrl(): Promise<string | undefined> {
  const given = process.env.TEST_DATABASE_URL
  if (given) return given
  const local = 'postgres://postgres@127.0.0.1:5432/postgres'
  const client = new pg.Client({ connectionString: local, connectionTimeoutMillis: 1000 })
  try {
    await client.connect()
    return local
  } catch {
    return undefined
  } finally {
    await client.end().catch(() => {})
  }
}
