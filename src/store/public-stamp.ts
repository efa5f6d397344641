import type { Db } from './database.ts'
import { nextId } from './counters.ts'
import { ID_COUNTERS, type IdCounter } from './counter-names.ts'

/**
 * The counters a public read of the shared history depends on: new contributions and note revisions
 * raise their id counters, and every change to already-published rows raises the public_changes counter. They
 * live in the database, so a stamp read on any instance reflects writes made on every instance.
 */
const STAMP_COUNTERS: IdCounter[] = [ID_COUNTERS.contributions, ID_COUNTERS.memoryRevisions, ID_COUNTERS.publicChanges]

export async function publicStamp(db: Db): Promise<string> {
  const rows = await db
    .selectFrom('id_counters')
    .select(['name', 'value'])
    .where('name', 'in', STAMP_COUNTERS)
    .execute()
  const values = new Map(rows.map((row) => [row.name, Number(row.value)]))
  return STAMP_COUNTERS.map((name) => values.get(name) ?? 0).join('.')
}

/** Called inside the transaction that changes published rows, so the change and the stamp commit together. */
export async function markPublicChange(db: Db): Promise<void> {
  await nextId(db, ID_COUNTERS.publicChanges)
}
