import type { Database, Db, WriteTx } from '../db/database.ts'
import { prepared } from '../db/prepared.ts'
import { nextId } from './counters.ts'
import { NAMED_COUNTERS, type IdCounter } from './counter-names.ts'
import { sharedPerTurn } from './per-turn.ts'

/**
 * The counters a public read of the shared history depends on: new contributions and note revisions
 * raise their id counters, and every change to already-published rows raises the public_changes counter. They
 * live in the database, so a stamp read on any instance reflects writes made on every instance.
 */
const STAMP_COUNTERS: IdCounter[] = ['contributions', 'memory_revisions', NAMED_COUNTERS.publicChanges]

/**
 * Every cached read runs this query first, so it is compiled once (db/prepared.ts). One scalar
 * subquery per counter: SQLite answers `name in (?, ?, ?)` by building a temporary index per run,
 * four times the cost of three primary-key lookups.
 */
const stampRow = prepared((db) =>
  db.selectNoFrom((eb) =>
    STAMP_COUNTERS.map((name, i) => eb.selectFrom('id_counters').select('value').where('name', '=', name).as(`c${i}`)),
  ),
)

export async function publicStamp(db: Db): Promise<string> {
  const [row] = (await stampRow(db, {})) as Array<Record<string, number | string | null>>
  return STAMP_COUNTERS.map((_, i) => Number(row?.[`c${i}`] ?? 0)).join('.')
}

const stampInTurn = sharedPerTurn((db, _key: 'stamp') => publicStamp(db))

/**
 * The stamp for a read outside any transaction. Reads asked for in one turn of the event loop share
 * one query, started after the last of them was asked (store/per-turn.ts), so each still sees every
 * write committed before it arrived; under load, dozens of cached reads then cost one round trip.
 */
export function sharedStamp(db: Db): Promise<string> {
  return stampInTurn(db, 'stamp')
}

/** Called inside the transaction that changes published rows, so the change and the stamp commit together. */
export async function markPublicChange(db: WriteTx): Promise<void> {
  await nextId(db, NAMED_COUNTERS.publicChanges)
}

/**
 * The stamp a cacheable read is served under: on the shared handle, read together with the other
 * requests of its turn; inside a transaction, its own snapshot's.
 */
export function stampFor(database: Database, db: Db): Promise<string> {
  return db === database.db ? sharedStamp(db) : publicStamp(db)
}
