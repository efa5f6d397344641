import { randomBytes } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before } from 'node:test'
import pg from 'pg'
import { type Database } from '../../src/db/database.ts'
import { openStore } from '../../src/store/open.ts'
import { migrate, MIGRATION_LOCK_KEY } from '../../src/db/migrate.ts'
import { insertParticipant } from '../../src/store/participants/write.ts'
import type { Db, WriteTx } from '../../src/db/database.ts'

/**
 * Each test file gets a database of its own: a fresh in-memory SQLite, or, when the suite runs on
 * PostgreSQL (TEST_DIALECT=postgres), a fresh schema in TEST_DATABASE_URL dropped at the end.
 */
export const dialect: 'sqlite' | 'postgres' = process.env.TEST_DIALECT === 'postgres' ? 'postgres' : 'sqlite'

export interface TestDatabase {
  url: string
  drop(): Promise<void>
}

export interface DatabaseOptions {
  /** SQLite: a temporary file, so several connections (servers) can share it. */
  file?: boolean
  /**
   * PostgreSQL: a database of its own instead of a schema, for a test whose outcome other files'
   * transactions would change: what VACUUM may remove depends on every transaction open in the database.
   */
  own?: boolean
}

export async function freshDatabase(options: DatabaseOptions = {}): Promise<TestDatabase> {
  if (dialect === 'sqlite') {
    if (!options.file) return { url: 'sqlite::memory:', drop: async () => {} }
    const dir = await mkdtemp(join(tmpdir(), 'clearing-test-'))
    return { url: `sqlite:${join(dir, 'db.sqlite')}`, drop: () => rm(dir, { recursive: true, force: true }) }
  }
  const base = process.env.TEST_DATABASE_URL
  if (!base) throw new Error('TEST_DIALECT=postgres needs TEST_DATABASE_URL')
  // A schema's name, or the own database's (dropTestSchemas reads both by it).
  const name = `t_${testRunTag()}_${randomBytes(6).toString('hex')}`
  if (options.own) {
    await adminQuery(base, `create database ${name}`)
    const url = new URL(base)
    url.pathname = `/${name}`
    return { url: url.href, drop: () => adminQuery(base, `drop database if exists ${name} with (force)`) }
  }
  await adminQuery(base, `create schema ${name}`)
  const separator = base.includes('?') ? '&' : '?'
  return {
    url: `${base}${separator}options=${encodeURIComponent(`-c search_path=${name}`)}`,
    // Dropping now would race other files: Kysely's migrator introspects every schema of the
    // database, and one vanishing under it fails that migration. npm test drops them all at the end.
    drop: async () => {},
  }
}

/**
 * A migrated store of its own for the tests of one file or describe block, opened before them and
 * closed after them: `store()` gives it to the tests (and to later `before` hooks, which run after this
 * one's).
 */
export function migratedStore(options: DatabaseOptions = {}): () => Database {
  let owned: TestDatabase | undefined
  let database: Database | undefined
  before(async () => {
    owned = await freshDatabase(options)
    database = openStore(owned.url)
    await migrate(database.db)
  })
  after(async () => {
    await database?.close()
    await owned?.drop()
  })
  return () => {
    if (!database) throw new Error('the store opens in a before hook: use it inside tests and hooks')
    return database
  }
}

/**
 * Every schema of one `npm test` run carries the run's tag: its start time (base 36) and a random
 * part. Runs sharing one database (a local run beside a CI run) then never drop each other's schemas.
 */
export function testRunTag(): string {
  process.env.TEST_RUN_TAG ??= `${Date.now().toString(36)}${randomBytes(3).toString('hex')}`
  return process.env.TEST_RUN_TAG
}

const SCHEMA_NAME = /^t_([0-9a-z]{8})([0-9a-f]{6})_[0-9a-f]{12}$/
/** Schemas named before runs were tagged (cleaned up once, never made again). */
const LEGACY_SCHEMA_NAME = /^t_[0-9a-f]{12}$/
/** Schemas of a run killed before it could clean up are dropped by a later run once they are this old. */
const ABANDONED_AFTER_MS = 24 * 60 * 60 * 1000

/**
 * Drops the schemas and own databases of this run, and those left by runs started over a day ago
 * (scripts/test.ts). Under the migration lock: a migrator of another run at the same time looks at
 * every schema of the database, and one dropped under it failed that run's migration.
 */
export async function dropTestSchemas(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  await client.query(`select pg_advisory_lock(${MIGRATION_LOCK_KEY})`)
  try {
    const tag = testRunTag()
    const leftBehind = (name: string) => {
      const match = SCHEMA_NAME.exec(name)
      if (!match) return false
      const ours = `${match[1]}${match[2]}` === tag
      return ours || Date.now() - parseInt(match[1] as string, 36) > ABANDONED_AFTER_MS
    }
    const schemas = await client.query<{ name: string }>(
      `select nspname as name from pg_namespace where nspname like 't\\_%'`,
    )
    for (const { name } of schemas.rows) {
      if (LEGACY_SCHEMA_NAME.test(name) || leftBehind(name)) await client.query(`drop schema if exists ${name} cascade`)
    }
    const databases = await client.query<{ name: string }>(
      `select datname as name from pg_database where datname like 't\\_%'`,
    )
    for (const { name } of databases.rows) {
      if (leftBehind(name)) await client.query(`drop database if exists ${name} with (force)`)
    }
  } finally {
    await client.end()
  }
}

/** One statement on its own connection: creating and dropping schemas and databases. */
export async function adminQuery(url: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    await client.query(text)
  } finally {
    await client.end()
  }
}

/** The participants row of an active participant, for tests that write rows by their author. */
export function testParticipantRow(id: string, name: string, createdAt: string) {
  return {
    id,
    name,
    model: 'm',
    status: 'active',
    suspended: 0,
    provenance: 'unknown',
    provenance_note: 'test',
    created_at: createdAt,
  } as const
}

/** A published contribution that starts a thread, for tests that write rows straight into the store. */
export function testContributionRow(id: number, participantId: string, content: string, createdAt: string) {
  return {
    id,
    participant_id: participantId,
    reply_to: null,
    thread_id: id,
    reply_to_participant_id: null,
    room: 'connection',
    kind: 'conversation',
    content,
    client_id: `test-${id}`,
    created_at: createdAt,
    quarantined: 0,
    payload_hash: null,
    provisional_id: null,
  }
}

/** An active participant written straight into the store. */
export async function insertTestParticipant(db: Db, id: string, name: string, createdAt: string): Promise<void> {
  // Seeding, outside any transaction: the WriteTx brand is a type only, and a test may seed directly.
  await insertParticipant(db as WriteTx, testParticipantRow(id, name, createdAt))
}
