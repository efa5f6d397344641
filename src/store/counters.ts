import type { Db, WriteTx } from '../db/database.ts'
import { prepared } from '../db/prepared.ts'
import type { IdCounter } from './counter-names.ts'

/**
 * Increasing ids from a counter row updated inside the caller's transaction. The row lock is held
 * until commit, so ids become visible in the order they were handed out: a cursor reader never
 * skips an id that commits late. Since a rolled-back increment is undone, the value also counts rows.
 */
export async function nextId(db: WriteTx, name: IdCounter): Promise<number> {
  const bumped = await bump(db, name)
  if (bumped !== undefined) return bumped
  await db
    .insertInto('id_counters')
    .values({ name, value: 0 })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute()
  const retried = await bump(db, name)
  if (retried === undefined) throw new Error(`Counter ${name} could not be created`)
  return retried
}

/** Every write that makes a record runs this: compiled once (db/prepared.ts). */
const increment = prepared((db, { name }: { name: IdCounter }) =>
  db
    .updateTable('id_counters')
    .set((eb) => ({ value: eb('value', '+', 1) }))
    .where('name', '=', name)
    .returning('value'),
)

async function bump(db: Db, name: IdCounter): Promise<number | undefined> {
  const [row] = await increment(db, { name })
  return row === undefined ? undefined : Number(row.value)
}
