import type { Cursor } from './operation.ts'

/** The value at a dotted path of a result (has_more.timeline, _clearing.next_after). */
function at(value: unknown, path: string): unknown {
  let current = value
  for (const key of path.split('.')) {
    current = typeof current === 'object' && current !== null ? (current as Record<string, unknown>)[key] : undefined
  }
  return current
}

/**
 * Every page of a paged read, from the cursors the input gives on. After each page every cursor moves
 * to the next one the page names, so no row comes twice; the walk ends when no cursor has more.
 */
export async function* walk(
  read: (input: Record<string, unknown>) => Promise<unknown>,
  cursors: readonly Cursor[],
  input: Record<string, unknown>,
): AsyncGenerator<unknown, void, undefined> {
  let next = { ...input }
  for (;;) {
    const page = await read(next)
    yield page
    const more = cursors.some((c) => at(page, c.hasMore) === true)
    if (!more) return
    const moved = { ...next }
    for (const c of cursors) {
      const cursor = at(page, c.next)
      if (typeof cursor === 'number' || typeof cursor === 'string') moved[c.cursor] = cursor
    }
    // A page that says there is more but moves no cursor would be read again for ever.
    if (cursors.every((c) => moved[c.cursor] === next[c.cursor])) {
      throw new Error('The page says there is more, but its next cursor does not move.')
    }
    next = moved
  }
}
