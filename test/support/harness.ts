import { randomBytes } from 'node:crypto'
import { after, before } from 'node:test'
import { Writable } from 'node:stream'
import { testConfig, type Config } from '../../src/config.ts'
import { ManualClock, systemRandom } from '../../src/services/clock.ts'
import { issueKey } from '../../src/services/key-format.ts'
import type { SecretLibrary } from '../../src/services/secret-scan/library.ts'
import { createServer, type Server } from '../../src/server.ts'
import { freshDatabase, type TestDatabase } from './database.ts'
import { sharedWalletFakes, walletConfig } from './wallet.ts'

export interface Reply<T = Record<string, unknown>> {
  status: number
  body: T
  headers: Headers
}

/** A real server listening on a loopback port, driven over HTTP like any client would. */
export interface TestServer {
  url: string
  clock: ManualClock
  server: Server
  logs: string[]
  post<T = Record<string, unknown>>(path: string, body: unknown): Promise<Reply<T>>
  get<T = Record<string, unknown>>(pathAndQuery: string): Promise<Reply<T>>
  /** POST /api/clearing with {action, ...fields}. */
  act<T = Record<string, unknown>>(action: string, fields?: Record<string, unknown>): Promise<Reply<T>>
  /** GET /api/clearing?view=...&params. */
  view<T = Record<string, unknown>>(
    view: string | undefined,
    params?: Record<string, string | number>,
  ): Promise<Reply<T>>
  /** Joins and returns {id, key}; moves the clock so registration limits do not interfere. */
  join(name?: string, model?: string): Promise<{ id: string; key: string }>
  close(): Promise<void>
}

export interface StartOptions {
  config?: Partial<Config>
  clock?: ManualClock
  /** A database another server uses too (two instances side by side); not dropped at close. */
  databaseUrl?: string
  /** The secret scanner library, in place of secretlint (a scan that throws or hangs). */
  secretLibrary?: SecretLibrary
}

/** Defaults for tests: generous limits, so each test opts into the limit it checks. */
const TEST_DEFAULTS: Partial<Config> = {
  registrationRatePerMinute: 1000,
  operatorKey: 'operator-secret-for-tests-0123456789',
  logLevel: 'info',
  // The pilot's timer would post into whatever a test is doing; pilot tests switch it on themselves.
  pilotEnabled: false,
}

export async function startServer(options: StartOptions = {}): Promise<TestServer> {
  const owned: TestDatabase | undefined = options.databaseUrl ? undefined : await freshDatabase()
  const url = options.databaseUrl ?? (owned as TestDatabase).url
  const clock = options.clock ?? new ManualClock()
  const logs: string[] = []
  const logDestination = new Writable({
    write(chunk, _enc, done) {
      logs.push(String(chunk))
      done()
    },
  })
  // Tips and paid services are on in tests, against a local chain and facilitator (support/wallet.ts).
  const wallet = walletConfig(await sharedWalletFakes())
  const config = testConfig({ ...TEST_DEFAULTS, ...wallet, databaseUrl: url, port: 0, ...options.config })
  const server = await createServer(config, { clock, logDestination, secretLibrary: options.secretLibrary })
  const address = await server.listen()

  const request = async <T>(method: string, path: string, body?: unknown): Promise<Reply<T>> => {
    const res = await fetch(address + path, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    })
    const text = await res.text()
    return { status: res.status, body: (text ? JSON.parse(text) : null) as T, headers: res.headers }
  }

  const test: TestServer = {
    url: address,
    clock,
    server,
    logs,
    post: (path, body) => request('POST', path, body),
    get: (path) => request('GET', path),
    act: (action, fields = {}) => request('POST', '/api/clearing', { action, ...fields }),
    view: (view, params = {}) => {
      const entries = Object.entries({ ...(view ? { view } : {}), ...params }).map(([k, v]): [string, string] => [
        k,
        String(v),
      ])
      const query = new URLSearchParams(entries)
      return request('GET', `/api/clearing?${query}`)
    },
    async join(name = 'Tester', model = 'test-model') {
      const reply = await test.act<{ id: string; key: string }>('join', { name, model })
      if (reply.status !== 200) throw new Error(`join failed: ${reply.status} ${JSON.stringify(reply.body)}`)
      return reply.body
    },
    async close() {
      await server.close()
      await owned?.drop()
    },
  }
  return test
}

/** One database for several servers, each with its own connections; drop it after the servers close. */
export async function sharedDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  return freshDatabase({ file: true })
}

interface Instances {
  a: TestServer
  b: TestServer
  /** The database both use. */
  url: string
}

/**
 * Two instances side by side: two servers on one database, with one clock, started before the suite's
 * tests and closed after them. Call it in a describe block; use the accessor inside tests.
 */
export function twoInstances(config: Partial<Config> = {}): () => Instances {
  const clock = new ManualClock()
  let database: Awaited<ReturnType<typeof sharedDatabase>> | undefined
  let pair: Instances | undefined
  before(async () => {
    database = await sharedDatabase()
    const start = (url: string) => startServer({ databaseUrl: url, clock, config })
    pair = { a: await start(database.url), b: await start(database.url), url: database.url }
  })
  after(async () => {
    await pair?.a.close()
    await pair?.b.close()
    await database?.drop()
  })
  return () => {
    if (!pair) throw new Error('the instances start in a before hook: use them inside tests and hooks')
    return pair
  }
}

/** A participation key in the format join issues (and rotate_key asks for). */
export function freshKey(): string {
  return issueKey(systemRandom, 'participant')
}

/** A participation key in the format issued before the checksummed one (still accepted). */
export function legacyKey(): string {
  return 'clr_' + randomBytes(32).toString('base64url')
}

/** Posts a contribution, advancing the clock past the 30-second rule first. */
export async function post(
  t: TestServer,
  key: string,
  fields: Record<string, unknown> = {},
): Promise<Reply<{ id: number; duplicate: boolean }>> {
  t.clock.advance(31)
  return t.act('contribute', {
    key,
    room: 'connection',
    kind: 'conversation',
    content: `hello ${Math.random()}`,
    client_id: `c-${Math.random()}`,
    ...fields,
  })
}

type Joined = { id: string; key: string }
/** A participant to join: its name, or its name and model label. */
type Joining = string | readonly [name: string, model: string]

export interface UseServerOptions<P extends Record<string, Joining>> extends Omit<StartOptions, 'config'> {
  /** The configuration, or a function giving it once earlier hooks have run (fakes they started, say). */
  config?: Partial<Config> | (() => Partial<Config>)
  /** Joined in this order once the server listens: `{ ann: ['Ann', 'model-a'], bob: 'Bob' }`. */
  participants?: P
}

/**
 * A server for the tests of one file or describe block: started in a `before` hook (registered first,
 * so later hooks see it), closed after them, with its participants joined. What it returns is filled
 * in by that hook: use it inside tests and hooks, e.g. `const { t, ann } = useServer({ participants:
 * { ann: 'Ann' } })`.
 */
export function useServer<const P extends Record<string, Joining> = Record<never, Joining>>(
  options: UseServerOptions<P> = {},
): { t: TestServer } & { [K in keyof P]: Joined } {
  const { participants = {} as P, config, ...start } = options
  const t = {} as TestServer
  const joined = Object.fromEntries(Object.keys(participants).map((name) => [name, { id: '', key: '' }]))
  let started: TestServer | undefined
  before(async () => {
    started = await startServer({ ...start, config: typeof config === 'function' ? config() : config })
    Object.assign(t, started)
    for (const [name, joining] of Object.entries(participants as Record<string, Joining>)) {
      const [display, model] = typeof joining === 'string' ? [joining, undefined] : joining
      Object.assign(joined[name] as Joined, await started.join(display, model))
    }
  })
  after(() => started?.close())
  return { t, ...joined } as { t: TestServer } & { [K in keyof P]: Joined }
}
