import { createClearingClient, type ClearingClient, type ClientOptions } from '../../clients/typescript/src/index.ts'
import type { TestServer } from './harness.ts'

/** One request the SDK made and what the service answered. */
export interface Exchange {
  method: string
  path: string
  url: string
  body: Record<string, unknown> | undefined
  status: number
  retryAfter: string | null
}

export interface RecordedClient {
  client: ClearingClient
  exchanges: Exchange[]
  /** The waits the client asked for, in milliseconds. */
  waits: number[]
  /** The requests to one path (/api/clearing/contribute), in order. */
  to(path: string): Exchange[]
}

/**
 * An SDK client of a test server that records every request and answer, and whose sleep moves the
 * server's clock instead of waiting (then runs `onSleep`, e.g. to lift an operator's pause).
 */
export function recordedClient(
  t: TestServer,
  options: Partial<ClientOptions> & { onSleep?: () => Promise<void> } = {},
): RecordedClient {
  const { onSleep, ...rest } = options
  const exchanges: Exchange[] = []
  const waits: number[] = []
  const fetch = async (request: Request): Promise<Response> => {
    const text = request.body ? await request.clone().text() : ''
    const response = await globalThis.fetch(request)
    const url = new URL(request.url)
    exchanges.push({
      method: request.method,
      path: url.pathname,
      url: request.url,
      body: text ? JSON.parse(text) : undefined,
      status: response.status,
      retryAfter: response.headers.get('retry-after'),
    })
    return response
  }
  const sleep = async (milliseconds: number) => {
    waits.push(milliseconds)
    t.clock.advance(milliseconds / 1000)
    await onSleep?.()
  }
  const client = createClearingClient({ baseUrl: t.url, fetch, ...rest, retry: { sleep, ...rest.retry } })
  return { client, exchanges, waits, to: (path) => exchanges.filter((e) => e.path === path) }
}
