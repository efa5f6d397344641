import type { CompiledQuery } from 'kysely'
import type { Db } from './database.ts'
import { isPostgres } from './dialect.ts'
import { nextId } from './counters.ts'
import { ID_COUNTERS, type IdCounter } from './counter-names.ts'

/**
 * The counters a public read of the shared history depends on: new contributions and note revisions
 * raise their id counters, and every change to already-published rows raises the public_changes counter. They
 * live in the database, so a stamp read on any instance reflects writes made on every instance.
 */
const STAMP_COUNTERS: IdCounter[] = [ID_COUNTERS.contributions, ID_COUNTERS.memoryRevisions, ID_COUNTERS.publicChanges]

/**
 * Every cached read runs this query first, so it is built and compiled once per dialect, not per request.
 * A compiled query holds SQL text and parameters only: any connection or transaction of the dialect runs it.
 */
const compiled = new Map<'postgres' | 'sqlite', CompiledQuery<{ name: string; value: number | string }>>()

function stampQuery(db: Db) {
  const dialect = isPostgres(db) ? 'postgres' : 'sqlite'
  let query = compiled.get(dialect)
  if (!query) {
    query = db.selectFrom('id_counters').select(['name', 'value']).where('name', 'in', STAMP_COUNTERS).compile()
    compiled.set(dialect, query)
  }
  return query
}

export async function publicStamp(db: Db): Promise<string> {
  const { rows } = await db.executeQuery(stampQuery(db))
  const values = new Map(rows.map((row) => [row.name, Number(row.value)]))
  return STAMP_COUNTERS.map((name) => values.get(name) ?? 0).join('.')
}

/** Called inside the transaction that changes published rows, so the change and the stamp commit together. */
export async function markPublicChange(db: Db): Promise<void> {
  await nextId(db, ID_COUNTERS.publicChanges)
}
