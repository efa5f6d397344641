import type { FastifyInstance } from 'fastify'
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client'
import type { KnownAuthors } from '../core/known-authors.ts'
import type { ActionObserver } from '../core/metrics.ts'
import type { ReadCache } from '../core/read-cache.ts'
import { sameDigest, sha256 } from '../services/secrets.ts'
import { CORE_ERROR_STATUS, errorBody, ServiceError } from '../services/errors.ts'
import type { Database } from '../db/database.ts'
import { operatorQueue } from '../store/operator/queue.ts'

const SECONDS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5]
/** Answers that mean two writers met: a reused client_id, a stale version, a state that moved on. */
const CONFLICTS = new Set(['idempotency_conflict', 'version_conflict', 'state_conflict'])

export interface Metrics extends ActionObserver {
  registry: Registry
}

/**
 * The Prometheus registry of one app (not prom-client's global one: tests run several apps in one
 * process): per-action rates, outcomes and latencies, HTTP routes, write conflicts and transaction
 * retries, the read cache's hits, the PostgreSQL pool, and Node's process metrics.
 */
export function createMetrics(
  readCache: ReadCache,
  database: Database,
  knownAuthors: KnownAuthors,
  now: () => Date,
): Metrics {
  const registry = new Registry()
  collectDefaultMetrics({ register: registry })
  const calls = new Counter({
    name: 'clearing_action_calls_total',
    help: 'Action calls by action, transport and outcome (ok or the error code).',
    labelNames: ['action', 'transport', 'outcome'],
    registers: [registry],
  })
  const latency = new Histogram({
    name: 'clearing_action_duration_seconds',
    help: 'Time to run an action (validation, transaction, handler), by action and transport.',
    labelNames: ['action', 'transport'],
    buckets: SECONDS,
    registers: [registry],
  })
  const conflicts = new Counter({
    name: 'clearing_write_conflicts_total',
    help: 'Writes refused with 409: idempotency_conflict, version_conflict or state_conflict.',
    labelNames: ['action', 'code'],
    registers: [registry],
  })
  const retries = new Counter({
    name: 'clearing_transaction_retries_total',
    help: 'Transactions retried after lock contention, a serialization failure or a unique violation.',
    labelNames: ['reason'],
    registers: [registry],
  })
  database.onRetry = (reason) => retries.inc({ reason })
  countedElsewhere(
    registry,
    'clearing_read_cache_lookups_total',
    'Read-cache lookups of cacheable public reads, by result (hit or miss).',
    () => ({ hit: readCache.hits, miss: readCache.misses }),
  )
  countedElsewhere(
    registry,
    'clearing_known_author_requests_total',
    'Posts given the author this instance remembers for their key instead of reading it (PostgreSQL), by ' +
      'result: recalled, and read_again when the author had changed or the post was refused.',
    () => ({ recalled: knownAuthors.recalled, read_again: knownAuthors.readAgain }),
  )
  new Gauge({
    name: 'clearing_read_cache_hit_ratio',
    help: 'Read-cache hits over lookups since the start (0 before any lookup).',
    registers: [registry],
    collect() {
      const lookups = readCache.hits + readCache.misses
      this.set(lookups === 0 ? 0 : readCache.hits / lookups)
    },
  })
  new Gauge({
    name: 'clearing_db_pool_connections',
    help: 'PostgreSQL pool: connections open (total), idle, and queries waiting for one; max is the limit.',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      const pool = database.poolStats()
      if (!pool) return
      for (const [state, value] of Object.entries(pool)) this.set({ state }, value)
    },
  })
  operatorGauges(registry, database, now)
  return {
    registry,
    action(name, transport, outcome, seconds) {
      calls.inc({ action: name, transport, outcome })
      latency.observe({ action: name, transport }, seconds)
      if (CONFLICTS.has(outcome)) conflicts.inc({ action: name, code: outcome })
    },
  }
}

/**
 * What waits for an operator, read from the database at each scrape, so an alert can fire on it: writes
 * paused, drafts pending, reports and privacy requests open, and how long the oldest has waited.
 */
function operatorGauges(registry: Registry, database: Database, now: () => Date): void {
  // One read serves the four gauges of a scrape (prom-client collects them one after another).
  let reading: Promise<Awaited<ReturnType<typeof operatorQueue>>> | undefined
  const queue = () => {
    reading ??= operatorQueue(database.db).finally(() => setImmediate(() => (reading = undefined)))
    return reading
  }
  const gauge = (
    name: string,
    help: string,
    set: (g: Gauge, q: Awaited<ReturnType<typeof operatorQueue>>) => void,
    labelNames: string[] = [],
  ) =>
    new Gauge({
      name,
      help,
      labelNames,
      registers: [registry],
      async collect() {
        set(this, await queue())
      },
    })
  gauge('clearing_writes_paused', '1 while an operator has paused all writes, else 0.', (g, q) =>
    g.set(q.writesPaused ? 1 : 0),
  )
  gauge('clearing_drafts_pending', 'Keyless drafts waiting for an operator to publish or reject them.', (g, q) =>
    g.set(q.draftsPending),
  )
  gauge(
    'clearing_cases_open',
    'Reports and privacy requests received and not yet decided, by kind.',
    (g, q) => {
      for (const [kind, count] of Object.entries(q.casesOpen)) g.set({ kind }, count)
    },
    ['kind'],
  )
  gauge(
    'clearing_oldest_waiting_seconds',
    'How long the oldest pending draft or open case has waited (0 when nothing waits).',
    (g, q) =>
      g.set(q.oldestWaitingSince ? Math.max(0, (now().getTime() - Date.parse(q.oldestWaitingSince)) / 1000) : 0),
  )
}

/** A counter by `result` whose counts another object keeps: read at each scrape. */
function countedElsewhere(registry: Registry, name: string, help: string, counts: () => Record<string, number>): void {
  new Counter({
    name,
    help,
    labelNames: ['result'],
    registers: [registry],
    collect() {
      this.reset()
      for (const [result, count] of Object.entries(counts())) this.inc({ result }, count)
    },
  })
}

/**
 * GET /metrics in the Prometheus text format, for the operators' scraper only: `Authorization:
 * Bearer <METRICS_TOKEN>`, compared in constant time. Without a token configured there is no route
 * (404); a missing or wrong token answers 401. Every route's rate and latency are recorded here too.
 */
export function registerMetrics(app: FastifyInstance, token: string, metrics: Metrics): void {
  const requests = new Histogram({
    name: 'clearing_http_request_duration_seconds',
    help: 'HTTP requests by method, route pattern and status, with their duration.',
    labelNames: ['method', 'route', 'status'],
    buckets: SECONDS,
    registers: [metrics.registry],
  })
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched'
    requests.observe({ method: request.method, route, status: reply.statusCode }, reply.elapsedTime / 1000)
  })
  const expected = sha256(`Bearer ${token}`)
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    const presented = request.headers.authorization
    if (typeof presented !== 'string' || !sameDigest(sha256(presented), expected)) {
      const error = new ServiceError('invalid_token', 'GET /metrics needs Authorization: Bearer <METRICS_TOKEN>.')
      return reply
        .code(CORE_ERROR_STATUS[error.code])
        .header('www-authenticate', 'Bearer realm="metrics"')
        .header('cache-control', 'no-store')
        .type('application/json; charset=utf-8')
        .send(errorBody(error))
    }
    reply.header('cache-control', 'no-store').type(metrics.registry.contentType)
    return metrics.registry.metrics()
  })
}
