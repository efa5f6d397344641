import { PostgresAdapter, sql, type Kysely } from 'kysely'

/**
 * Full-text search over contributions, shared-note revisions and feedback (store/search/read.ts). The
 * index changes in the same transaction as every write, without the writers knowing of it, and
 * never holds quarantined text: a quarantine removes the row's words, a release puts them back.
 *
 * SQLite: an FTS5 table per record table, external content (the text is not stored twice), keyed
 * on the table's rowid and kept by triggers. PostgreSQL: a stored generated tsvector column per
 * table with a GIN index. Both split text the same way (letters and digits, lowercased, no stemming,
 * accents kept), so a query finds the same records on either engine. Existing rows are indexed here.
 */
export const TABLES = [
  { table: 'contributions', columns: ['content'] },
  { table: 'memory_revisions', columns: ['title', 'content'] },
  { table: 'feedback', columns: ['content'] },
] as const

export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter
  for (const { table, columns } of TABLES) {
    if (postgres) await postgresIndex(db, table, columns)
    else await sqliteIndex(db, table, columns)
  }
}

async function postgresIndex(db: Kysely<unknown>, table: string, columns: readonly string[]): Promise<void> {
  const vectors = columns.map((c) => `to_tsvector('simple'::regconfig, coalesce(${c}, ''))`).join(' || ')
  // Adding the stored column computes it for every existing row: that is the backfill.
  await sql
    .raw(
      `alter table ${table} add column search_tsv tsvector generated always as
        (case when quarantined = 0 then ${vectors} else ''::tsvector end) stored`,
    )
    .execute(db)
  await sql.raw(`create index ${table}_search on ${table} using gin (search_tsv)`).execute(db)
}

async function sqliteIndex(db: Kysely<unknown>, table: string, columns: readonly string[]): Promise<void> {
  const fts = `${table}_fts`
  const list = columns.join(', ')
  const values = (row: 'old' | 'new') => columns.map((c) => `${row}.${c}`).join(', ')
  await sql
    .raw(
      `create virtual table ${fts} using fts5(${list}, content='${table}',
        tokenize='unicode61 remove_diacritics 0', prefix='2 3')`,
    )
    .execute(db)
  // An external-content index must be told the old text to forget it: only rows it holds (not
  // quarantined) are deleted from it, and only rows it may hold are added.
  const forget = (row: 'old') =>
    `insert into ${fts} (${fts}, rowid, ${list}) select 'delete', ${row}.rowid, ${values(row)} where ${row}.quarantined = 0;`
  const add = (row: 'new') =>
    `insert into ${fts} (rowid, ${list}) select ${row}.rowid, ${values(row)} where ${row}.quarantined = 0;`
  await sql.raw(`create trigger ${fts}_insert after insert on ${table} begin ${add('new')} end`).execute(db)
  await sql.raw(`create trigger ${fts}_delete after delete on ${table} begin ${forget('old')} end`).execute(db)
  await sql
    .raw(
      `create trigger ${fts}_update after update of id, quarantined, ${list} on ${table}
        begin ${forget('old')} ${add('new')} end`,
    )
    .execute(db)
  await sql
    .raw(`insert into ${fts} (rowid, ${list}) select rowid, ${list} from ${table} where quarantined = 0`)
    .execute(db)
}

export async function down(): Promise<void> {
  throw new Error('Clearing migrations are forward-only.')
}
