import { sql, type SelectQueryBuilder } from 'kysely'

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
  const rows = await query
    .where(sql<boolean>`${sql.ref(column)} > ${request.after}`)
    .orderBy(sql.ref(column), 'asc')
    .limit(request.limit + 1)
    .execute()
  const items = rows.slice(0, request.limit).map(map)
  const last = items.at(-1)
  return { items, hasMore: rows.length > request.limit, next: last === undefined ? request.after : cursorOf(last) }
}
