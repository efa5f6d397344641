import { PostgresAdapter, sql, type Kysely } from 'kysely'
import { TABLES } from './010-search.ts'

/**
 * SQLite: new rows reach their FTS5 index once per group commit instead of once per write. FTS5
 * keeps a transaction's new words in memory and writes them as one segment, but it writes out what
 * it holds whenever a later statement of the transaction opens a statement journal (its xSavepoint),
 * and the next contribution's insert is such a statement (its triggers and constraints): each row
 * of a batch became a segment of its own, and the statement after each insert paid for writing it
 * (about 11 microseconds, plus merging the many small segments at commit). Now the insert trigger
 * only records the row in `search_staged`, and the batch indexes every staged row in one statement
 * just before its COMMIT (store/search/staging.ts). The delete and update triggers know a staged row
 * was never indexed: they do not ask FTS5 to forget it (which would corrupt the index), and they
 * take it out of the stage; an update then indexes the row's new text at once, as before. Rows
 * written outside a group commit (a bulk load) wait in the stage until `indexStagedRows`.
 * The tables and columns are migration 010's, whose triggers these replace. PostgreSQL's generated
 * columns and GIN indexes are unchanged.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return
  await sql
    .raw(
      `create table search_staged (source text not null, row integer not null, primary key (source, row)) without rowid`,
    )
    .execute(db)
  for (const { table, columns } of TABLES) await stagedTriggers(db, table, columns)
}

async function stagedTriggers(db: Kysely<unknown>, table: string, columns: readonly string[]): Promise<void> {
  const fts = `${table}_fts`
  const list = columns.join(', ')
  const values = (row: 'old' | 'new') => columns.map((c) => `${row}.${c}`).join(', ')
  const staged = (row: 'old') => `exists (select 1 from search_staged where source = '${table}' and row = ${row}.rowid)`
  const forget = `insert into ${fts} (${fts}, rowid, ${list}) select 'delete', old.rowid, ${values('old')}
    where old.quarantined = 0 and not ${staged('old')};`
  const unstage = `delete from search_staged where source = '${table}' and row = old.rowid;`
  const add = `insert into ${fts} (rowid, ${list}) select new.rowid, ${values('new')} where new.quarantined = 0;`
  for (const event of ['insert', 'delete', 'update']) await sql.raw(`drop trigger ${fts}_${event}`).execute(db)
  await sql
    .raw(
      `create trigger ${fts}_insert after insert on ${table}
        begin insert into search_staged (source, row) values ('${table}', new.rowid); end`,
    )
    .execute(db)
  await sql.raw(`create trigger ${fts}_delete after delete on ${table} begin ${forget} ${unstage} end`).execute(db)
  await sql
    .raw(
      `create trigger ${fts}_update after update of id, quarantined, ${list} on ${table}
        begin ${forget} ${unstage} ${add} end`,
    )
    .execute(db)
}

export async function down(): Promise<void> {
  throw new Error('Clearing migrations are forward-only.')
}
