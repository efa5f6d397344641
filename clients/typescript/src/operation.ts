/** One cursor of a paged read: the input field it is sent as, and where the page says what comes next. */
export interface Cursor {
  /** The query or body field (after, memory_after). */
  readonly cursor: string
  /** Dotted path of the next cursor in the result (next_cursor, _clearing.next_after). */
  readonly next: string
  /** Dotted path of the boolean that says whether rows remain past this page. */
  readonly hasMore: string
}

/** How the client calls one action: the row of the generated operation table (generated/operations.ts). */
export interface Operation {
  readonly method: 'get' | 'post'
  /** The action's own path (POST /api/clearing/contribute), so its request and result types are one. */
  readonly path: string
  /** Repeating it with the same input has no further effect, so a 429 or 503 may be retried. */
  readonly idempotent: boolean
  /** The body takes the participation key: the client's key goes there when the call gives none. */
  readonly key: boolean
  /** The body takes a client_id: one is generated when the call gives none, and kept across retries. */
  readonly clientId: boolean
  /** Cursor-paged reads: every cursor the page advances. */
  readonly paging?: readonly Cursor[]
}
