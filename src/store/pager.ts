import { sql, type RawBuilder, type SelectQueryBuilder } from 'kysely'
import type { Db } from '../db/database.ts'
import { isPostgres } from '../db/dialect.ts'
import { perTurn } from './per-turn.ts'
import { prepared } from '../db/prepared.ts'

/** One page of a cursor-paged read. */
export interface Page<T> {
  items: T[]
  /** Rows remain after this page. */
  hasMore: boolean
  /** The cursor for the next request: the last id returned, or the given cursor when the page is empty. */
  next: number
}

export interface PageRequest {
  /** Return rows whose cursor column is greater than this. */
  after: number
  limit: number
}

/**
 * The one keyset pager every cursor-paged read goes through: ascending order of one increasing
 * column after the caller's cursor, never OFFSET, with one extra row fetched to tell has_more. A
 * reader that keeps passing `next` back sees every row exactly once, however the rows are filtered.
 */
export async function keysetPage<DB, TB extends keyof DB, O, T>(
  query: SelectQueryBuilder<DB, TB, O>,
  column: string,
  request: PageRequest,
  map: (row: O) => T,
  cursorOf: (item: T) => number,
): Promise<Page<T>> {
  const rows = await afterCursor(query, column, request.after, request.limit + 1).execute()
  return pageOfRows(rows, request, map, cursorOf)
}

/**
 * keysetPage for a read of fixed shape that runs on every poll (the history): the query is built and
 * compiled once (db/prepared.ts) and run with its values, the cursor and the limit.
 *
 * `sizeInText` writes the page size into the SQL instead of binding it, one compiled variant per size
 * (bounded by the page schema, LIMITS.page_max). PostgreSQL must assume a LIMIT parameter asks for a
 * tenth of the table, so it finds its one reusable (generic) plan costlier than planning each run for
 * the values given, and plans every run again: a third of the history page's time. Only for a query
 * whose generic plan is right for every value, a range on the cursor column alone: with `room = $1`
 * as well, that plan walks the primary key and filters by room, which for a rare room reads the table.
 */
export function preparedKeysetPage<P extends Record<string, unknown>, DB, TB extends keyof DB, O, T>(
  build: (db: Db, values: P) => SelectQueryBuilder<DB, TB, O>,
  column: string,
  map: (row: O) => T,
  cursorOf: (item: T) => number,
  options: { sizeInText?: boolean } = {},
): (db: Db, values: P, request: PageRequest) => Promise<Page<T>> {
  type Run = (db: Db, values: P & { after: number; take: number }) => Promise<O[]>
  const compile = (size?: number): Run =>
    prepared((db, v: P & { after: number; take: number }) =>
      afterCursor(build(db, v), column, v.after, size === undefined ? v.take : sql.lit(size)),
    )
  const compiled = sizes(compile)
  return async (db, values, request) => {
    const take = request.limit + 1
    const rows = await compiled(options.sizeInText ? take : undefined)(db, { ...values, after: request.after, take })
    return pageOfRows(rows, request, map, cursorOf)
  }
}

/** One compiled statement per page size written into the SQL, or one for every size (size undefined). */
function sizes<S extends number | undefined, R>(compile: (size: S) => R): (size: S) => R {
  const compiled = new Map<S, R>()
  return (size) => {
    let run = compiled.get(size)
    if (run === undefined) {
      run = compile(size)
      compiled.set(size, run)
    }
    return run
  }
}

/**
 * preparedKeysetPage for the read every poller runs with a cursor of its own (the unfiltered history).
 * On PostgreSQL, outside a transaction, the pages of one size asked for in one turn of the event loop
 * are read by one statement, a LATERAL page per distinct cursor: every statement sent wakes a server
 * process, and under load those wake-ups, more than the reading, were a fifth of a missed page's time.
 * The pages are read after the turn they were asked in (store/per-turn.ts, as the shared stamp), so
 * each still sees every row published before its request came. SQLite reads in-process: each page
 * at once, by its own statement.
 */
export function batchedKeysetPage<DB, TB extends keyof DB, O, T>(
  build: (db: Db) => SelectQueryBuilder<DB, TB, O>,
  column: string,
  map: (row: O) => T,
  cursorOf: (item: T) => number,
): (db: Db, request: PageRequest) => Promise<Page<T>> {
  // The page size is written into the SQL (see preparedKeysetPage): one statement per size.
  const one = sizes((size: number) =>
    prepared((db, v: { after: number }) => afterCursor(build(db), column, v.after, sql.lit(size))),
  )
  const many = sizes((size: number) =>
    prepared((db, v: { cursors: number[] }) =>
      db
        .selectFrom(sql<{ after: number }>`(select unnest(${v.cursors}::bigint[]) as after)`.as('cursors'))
        .innerJoinLateral(afterCursor(build(db), column, sql.ref('cursors.after'), sql.lit(size)).as('page'), (join) =>
          join.onTrue(),
        )
        .selectAll('page' as never)
        .select(sql<string>`cursors.after`.as('page_cursor')),
    ),
  )
  const field = column.split('.').at(-1) as string
  /** The rows of each cursor's page, read by one statement for all the distinct cursors asked. */
  const readTogether = async (db: Db, take: number, afters: number[]): Promise<O[][]> => {
    if (afters.length === 1) return [await one(take)(db, { after: afters[0] as number })]
    const cursors = [...new Set(afters)]
    const byCursor = new Map<number, O[]>(cursors.map((cursor) => [cursor, []]))
    const rows = (await many(take)(db, { cursors })) as Array<O & { page_cursor: string | number }>
    // Each row keeps its page_cursor: map picks the fields it needs, and no row is copied.
    for (const row of rows) byCursor.get(Number(row.page_cursor))?.push(row)
    for (const page of byCursor.values()) ascending(page, field)
    return afters.map((after) => byCursor.get(after) ?? [])
  }
  /** Per pool and page size, the pages asked for in one turn of the event loop (store/per-turn.ts). */
  const pagesInTurn = perTurn(readTogether)

  return async (db, request) => {
    const take = request.limit + 1
    const rows =
      isPostgres(db) && !db.isTransaction
        ? await pagesInTurn(db, take, request.after)
        : await one(take)(db, { after: request.after })
    return pageOfRows(rows, request, map, cursorOf)
  }
}

/**
 * Puts a page's rows in ascending order of their cursor column. The statement reading many pages
 * leaves the order of its rows to PostgreSQL, which reads each page in order and returns it so: a
 * sort of all of them by cursor and column, which nothing but SQL's rules needed, was a sixth of the
 * statement's time. A page already in order is only checked.
 */
export function ascending<O>(rows: O[], field: string): void {
  const at = (row: O) => Number((row as Record<string, unknown>)[field])
  for (let i = 1; i < rows.length; i++) {
    if (at(rows[i - 1] as O) > at(rows[i] as O)) {
      rows.sort((a, b) => at(a) - at(b))
      return
    }
  }
}

function afterCursor<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
  column: string,
  after: number | RawBuilder<unknown>,
  take: number | RawBuilder<number>,
): SelectQueryBuilder<DB, TB, O> {
  return query
    .where(sql<boolean>`${sql.ref(column)} > ${after}`)
    .orderBy(sql.ref(column), 'asc')
    .limit(take)
}

/** One row more than the limit was asked for: its presence is has_more. */
function pageOfRows<O, T>(rows: O[], request: PageRequest, map: (row: O) => T, cursorOf: (item: T) => number): Page<T> {
  const items = rows.slice(0, request.limit).map(map)
  const last = items.at(-1)
  return { items, hasMore: rows.length > request.limit, next: last === undefined ? request.after : cursorOf(last) }
}
