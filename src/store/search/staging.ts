import { sql, type RawBuilder } from 'kysely'
import type { CommitHook } from '../../db/commit-hooks.ts'
import type { Db } from '../../db/database.ts'
import { TABLES } from '../../db/migrations/010-search.ts'

const stagedSources = sql<{ source: string }>`select distinct source from search_staged`

/**
 * Each searchable table's statement that indexes its staged rows into its FTS5 table (migration 010's
 * tables and columns), built once. Quarantined rows are never indexed.
 */
const indexing: Readonly<Record<string, RawBuilder<unknown>>> = Object.fromEntries(
  TABLES.map(({ table, columns }) => {
    const list = sql.raw(columns.join(', '))
    const from = sql.raw(columns.map((c) => `t.${c}`).join(', '))
    return [
      table,
      sql`insert into ${sql.table(`${table}_fts`)} (rowid, ${list})
        select t.rowid, ${from} from search_staged s cross join ${sql.table(table)} t
        where s.source = ${table} and t.rowid = s.row and t.quarantined = 0`,
    ]
  }),
)

const unstageAll = sql`delete from search_staged`

/**
 * SQLite only: indexes the rows written since the last call, all of a source's in one statement, so
 * FTS5 writes one segment for them (migration 013 says why). A group commit runs it just before its
 * COMMIT (SEARCH_STAGING); a bulk load, once it is done (settleSearchIndexes).
 */
export async function indexStagedRows(db: Db): Promise<void> {
  const { rows } = await stagedSources.execute(db)
  if (rows.length === 0) return
  for (const { source } of rows) {
    const statement = indexing[source]
    if (statement === undefined) throw new Error(`search_staged holds rows of an unknown table: ${source}`)
    await statement.execute(db)
  }
  await unstageAll.execute(db)
}

/** SQLite: the rows staged by a group commit's writes reach the search index just before its COMMIT. */
export const SEARCH_STAGING: CommitHook<never> = {
  name: 'search staging',
  start: () => {
    throw new Error('search staging collects nothing: its triggers stage the rows')
  },
  finish: (tx) => indexStagedRows(tx),
  always: true,
}
