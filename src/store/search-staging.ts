import { sql } from 'kysely'
import type { Db } from './database.ts'

/** The tables SQLite indexes for search, each with the FTS5 table and columns migration 010 gave it. */
const SOURCES: Readonly<Record<string, { fts: string; columns: readonly string[] }>> = {
  contributions: { fts: 'contributions_fts', columns: ['content'] },
  memory_revisions: { fts: 'memory_revisions_fts', columns: ['title', 'content'] },
  feedback: { fts: 'feedback_fts', columns: ['content'] },
}

const stagedSources = sql<{ source: string }>`select distinct source from search_staged`

/** Each source's statement that indexes its staged rows, built once (quarantined rows are never indexed). */
const indexing = Object.fromEntries(
  Object.entries(SOURCES).map(([source, { fts, columns }]) => {
    const list = sql.raw(columns.join(', '))
    const from = sql.raw(columns.map((c) => `t.${c}`).join(', '))
    return [
      source,
      sql`insert into ${sql.table(fts)} (rowid, ${list})
        select t.rowid, ${from} from search_staged s cross join ${sql.table(source)} t
        where s.source = ${source} and t.rowid = s.row and t.quarantined = 0`,
    ]
  }),
)

const unstageAll = sql`delete from search_staged`

/**
 * SQLite only: indexes the rows written since the last call, all of a source's in one statement, so
 * FTS5 writes one segment for them (migration 013 says why). A group commit calls it just before its
 * COMMIT (sqlite-batches.ts); a bulk load, once it is done (settleSearchIndexes).
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
