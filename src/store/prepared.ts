import type { CompiledQuery, Compilable } from 'kysely'
import type { Db } from './database.ts'
import { isPostgres } from './dialect.ts'

/** Stands in for a parameter while the query is compiled; never a value a caller could send. */
const SLOT = '\u0000clearing-prepared:'

type Slot = { name: string } | { constant: unknown }

interface Compiled {
  query: CompiledQuery
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
): (db: Db, values: P) => Promise<R[]> {
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
      entry = { query, slots }
      compiled.set(dialect, entry)
    }
    return entry
  }
  return async (db, values) => {
    const { query, slots } = compile(db)
    const parameters = slots.map((slot) => ('name' in slot ? values[slot.name] : slot.constant))
    const { rows } = await db.executeQuery<R>({ ...query, parameters } as CompiledQuery<R>)
    return rows
  }
}
