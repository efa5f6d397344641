import type { Database, Db } from '../../db/database.ts'
import { sharedPerTurn } from '../per-turn.ts'
import { prepared } from '../../db/prepared.ts'

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

export const WRITES_PAUSED = 'writes_paused'

/**
 * Whether participant writes are paused, asked before a write's transaction by a write that no key
 * look-up tells. PostgreSQL reads it on the shared handle together with the other requests of its
 * turn, rather than as a round trip of its own while the write holds a pooled connection; SQLite
 * answers undefined: its write reads it in-process inside its batched transaction (writesPausedIn),
 * where a read of its own outside cost more.
 */
export async function writesPausedBefore(database: Database): Promise<boolean | undefined> {
  if (database.dialect !== 'postgres') return undefined
  return (await sharedFlag(database.db, WRITES_PAUSED)) === 'true'
}

/** Whether writes are paused now, for a page that says so (read with the other requests of its turn). */
export async function writesPausedNow(db: Db): Promise<boolean> {
  return (await sharedFlag(db, WRITES_PAUSED)) === 'true'
}

/** Whether participant writes are paused, read in the write's own transaction. */
export async function writesPausedIn(tx: Db): Promise<boolean> {
  return (await readFlag(tx, WRITES_PAUSED)) === 'true'
}
