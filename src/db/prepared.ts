import type { CompiledQuery, Compilable } from 'kysely'
import type { Db } from './database.ts'
import { isPostgres } from './dialect.ts'
import { CHECKED_AHEAD, ENDS_TRANSACTION } from './pg-statements.ts'

/** Stands in for a parameter while the query is compiled; never a value a caller could send. */
const SLOT = '\u0000clearing-prepared:'

type Slot = { name: string } | { constant: unknown }

interface Compiled {
  query: CompiledQuery
  /** The same text marked as its transaction's last write (db/pg-statements.ts). */
  ending: string
  /** The same text marked as a check sent ahead (db/pg-statements.ts). */
  ahead: string
  slots: Slot[]
}

/**
 * A query whose shape never changes, only its values: built and compiled once per dialect, then
 * run with new values. Kysely otherwise builds and compiles every query on every call, a tenth of a
 * request on the hot paths. `build` must not branch on the values it is given (they are stand-ins
 * while it compiles) and must bind each as a parameter: a value written into the SQL text is refused.
 */
export function prepared<P extends Record<string, unknown>, R>(
  build: (db: Db, values: P) => Compilable<R>,
  /** The value names, when `build` hands the values object on whole (an insert's row). */
  names?: ReadonlyArray<keyof P & string>,
): Prepared<P, R> {
  const compiled = new Map<'postgres' | 'sqlite', Compiled>()
  const compile = (db: Db): Compiled => {
    const dialect = isPostgres(db) ? 'postgres' : 'sqlite'
    let entry = compiled.get(dialect)
    if (entry === undefined) {
      const standIns = (
        names
          ? Object.fromEntries(names.map((name) => [name, `${SLOT}${name}`]))
          : new Proxy({}, { get: (_target, name) => `${SLOT}${String(name)}` })
      ) as P
      const query = build(db, standIns).compile()
      if (query.sql.includes(SLOT)) throw new Error(`prepared query writes a value into its SQL: ${query.sql}`)
      const slots = query.parameters.map((value): Slot =>
        typeof value === 'string' && value.startsWith(SLOT) ? { name: value.slice(SLOT.length) } : { constant: value },
      )
      entry = { query, ending: ENDS_TRANSACTION + query.sql, ahead: CHECKED_AHEAD + query.sql, slots }
      compiled.set(dialect, entry)
    }
    return entry
  }
  return async (db, values, order = {}) => {
    const { query, slots, ending, ahead } = compile(db)
    const parameters = slots.map((slot) => ('name' in slot ? values[slot.name] : slot.constant))
    // SQLite's transactions are batched (db/sqlite-batches.ts): there the marks change nothing.
    const marked = order.checkedAhead ? ahead : order.endsTransaction ? ending : query.sql
    const sql = isPostgres(db) ? marked : query.sql
    const { rows } = await db.executeQuery<R>({ ...query, sql, parameters } as CompiledQuery<R>)
    return rows
  }
}

/**
 * Where a write stands in its transaction. `endsTransaction`: it is the last write of the transaction
 * `db` is, so on PostgreSQL the COMMIT goes out with it (db/pg-statements.ts): the transaction
 * commits when it has run, and anything the transaction runs after it runs on its own, so only reads
 * of committed rows may follow.
 */
export interface WriteOrder {
  endsTransaction?: boolean
  /**
   * A check that answers an error when what it checks does not hold: on PostgreSQL it goes out at once
   * and its answer comes with the next statement's, failing that one as a CheckFailed
   * (db/pg-statements.ts). It returns no rows there.
   */
  checkedAhead?: boolean
}

export type Prepared<P, R> = (db: Db, values: P, order?: WriteOrder) => Promise<R[]>
