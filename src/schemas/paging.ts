import { Type, type TArray, type TBoolean, type TInteger, type TObject, type TSchema } from 'typebox'
import type { PagingDecl } from '../core/action.ts'
import type { Page } from '../store/pager.ts'

const NextCursor = Type.Integer({
  minimum: 0,
  description: 'The last id returned, or your cursor when the page is empty: pass it as after to read on.',
})
const HasMore = Type.Boolean({ description: 'More items wait after next_cursor: read again at once.' })

type PagedListSchema<K extends string, T extends TSchema> = TObject<
  { [P in K]: TArray<T> } & { next_cursor: TInteger; has_more: TBoolean }
>

/** The output of a paged list: `{<key>: [...], next_cursor, has_more}`. */
export function PagedList<K extends string, T extends TSchema>(
  key: K,
  item: T,
  options: { description?: string } = {},
): PagedListSchema<K, T> {
  const properties = { [key]: Type.Array(item, options), next_cursor: NextCursor, has_more: HasMore }
  return Type.Object(properties) as unknown as PagedListSchema<K, T>
}

/** How a PagedList pages, for the action's `paging` declaration. */
export const listPaging = (key: string): readonly PagingDecl[] => [
  { cursor: 'after', items: [key], next: 'next_cursor', hasMore: 'has_more' },
]

/** A store page as a PagedList result. */
export function pagedResult<K extends string, T>(key: K, page: Page<T>) {
  return { [key]: page.items, next_cursor: page.next, has_more: page.hasMore } as { [P in K]: T[] } & {
    next_cursor: number
    has_more: boolean
  }
}
