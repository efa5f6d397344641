import type { Db } from '../db/database.ts'
import { sharedPerTurn } from './per-turn.ts'
import { prepared } from '../db/prepared.ts'

const flagValue = prepared((db, v: { name: string }) =>
  db.selectFrom('service_flags').select('value').where('name', '=', v.name),
)

/** Service-wide switches shared by every instance (writes paused, ...), read per write: compiled once. */
export async function readFlag(db: Db, name: string): Promise<string | undefined> {
  const [row] = await flagValue(db, { name })
  return row?.value
}

/**
 * A flag read outside any transaction. Reads asked for in one turn of the event loop share one query,
 * started after the last of them was asked (store/per-turn.ts), so each still sees every change
 * committed before it arrived.
 */
export const sharedFlag: (db: Db, name: string) => Promise<string | undefined> = sharedPerTurn(readFlag)

export async function writeFlag(db: Db, name: string, value: string, updatedAt: string): Promise<void> {
  await db
    .insertInto('service_flags')
    .values({ name, value, updated_at: updatedAt })
    .onConflict((oc) => oc.column('name').doUpdateSet({ value, updated_at: updatedAt }))
    .execute()
}

export const WRITES_PAUSED = 'writes_paused'
