import createClient, { type Client } from 'openapi-fetch'
import { errorOf } from './errors.ts'
import { OPERATIONS } from './generated/operations.ts'
import type { paths } from './generated/schema.ts'
import type { Operation } from './operation.ts'
import { walk } from './pages.ts'
import { retryAfterSeconds, retryPolicy, type RetryOptions, type RetryPolicy } from './retry.ts'
import type { Methods, Pages } from './types.ts'

export interface ClientOptions {
  /** Where the service is, e.g. https://clearing.example (no trailing path). */
  baseUrl: string
  /** The participation key from join: sent in the body of every action that takes one, never in a URL. */
  key?: string
  /** A fetch of your own (a proxy agent, a test double); the global fetch by default. */
  fetch?: (request: Request) => Promise<Response>
  retry?: RetryOptions
  /** Identifies the caller to the service and its edge (default `@clearing/client`). */
  userAgent?: string
  /** Makes the client_id of a write that gives none (default crypto.randomUUID, a version 4 UUID). */
  clientId?: () => string
}

export type ClearingClient = Methods & {
  /** Every page of each paged read: `for await (const page of client.pages.readHistory({ after: 0 }))`. */
  readonly pages: Pages
  /** The typed openapi-fetch client underneath, by path, for what the methods do not cover. */
  readonly raw: Client<paths>
  /** The same client acting with another key (after join, say). */
  withKey(key: string): ClearingClient
}

type Call = (input?: Record<string, unknown>) => Promise<unknown>
type Send = (
  method: string,
  path: string,
  init: { params?: { query?: Record<string, unknown> }; body?: unknown },
) => Promise<{ data?: unknown; error?: unknown; response: Response }>

/**
 * One method per action of the service, typed from its OpenAPI document: the key and a client_id go
 * into the bodies that take them, a 429 or 503 of an action safe to repeat is retried after its
 * Retry-After with the very same body, and a refusal is thrown as a ClearingError.
 */
export function createClearingClient(options: ClientOptions): ClearingClient {
  const raw = createClient<paths>({
    baseUrl: options.baseUrl,
    ...(options.fetch ? { fetch: options.fetch } : {}),
    headers: { 'user-agent': options.userAgent ?? '@clearing/client' },
  })
  return build(raw, options, retryPolicy(options.retry))
}

function build(raw: Client<paths>, options: ClientOptions, policy: RetryPolicy): ClearingClient {
  // Typed by path for callers; the methods below reach it by the table's path, so untyped here.
  const send = raw.request as unknown as Send
  const newClientId = options.clientId ?? (() => crypto.randomUUID())

  async function call(row: Operation, input: Record<string, unknown> = {}): Promise<unknown> {
    const fields = { ...input }
    if (row.key && fields.key === undefined && options.key !== undefined) fields.key = options.key
    // Chosen once per call, so every retry of it is the same write (the service's idempotency rule).
    if (row.clientId && fields.client_id === undefined) fields.client_id = newClientId()
    const init = row.method === 'get' ? { params: { query: fields } } : { body: fields }
    for (let attempt = 1; ; attempt++) {
      const { data, error, response } = await send(row.method.toUpperCase(), row.path, init)
      if (response.ok) return data
      const retryAfter = retryAfterSeconds(response, error)
      const wait = policy.waitBefore(attempt, response.status, row.idempotent, retryAfter)
      if (wait === undefined) throw errorOf(response, error, retryAfter)
      await policy.sleep(wait * 1000)
    }
  }

  const methods: Record<string, Call> = {}
  const pages: Record<string, (input?: Record<string, unknown>) => AsyncGenerator<unknown, void, undefined>> = {}
  for (const [name, row] of Object.entries(OPERATIONS) as [string, Operation][]) {
    const method: Call = (input) => call(row, input)
    methods[name] = method
    const cursors = row.paging
    if (cursors) pages[name] = (input = {}) => walk(method, cursors, input)
  }
  const client = {
    ...methods,
    pages,
    raw,
    withKey: (key: string) => build(raw, { ...options, key }, policy),
  }
  // The table and the types are generated from one document (test/sdk/generated.test.ts).
  return client as unknown as ClearingClient
}
