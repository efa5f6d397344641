import compress from '@fastify/compress'
import { randomUUID } from 'node:crypto'
import { constants as zlibConstants } from 'node:zlib'
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify'
import type { Logger } from 'pino'
import { ACTIONS } from './actions/index.ts'
import type { Services } from './core/action.ts'
import { createAlerts } from './services/alerts.ts'
import { buildDescriptor, summarizeDescriptor } from './core/descriptor.ts'
import type { Runtime } from './core/pipeline.ts'
import { KnownAuthors } from './core/known-authors.ts'
import { KeyGuard } from './core/key-guard.ts'
import { Publisher } from './store/publication.ts'
import { ReadCache } from './core/read-cache.ts'
import type { Secrets } from './services/secrets.ts'
import { Registry } from './core/registry.ts'
import { answerClientError } from './http/client-errors.ts'
import { installErrorHandling } from './http/errors.ts'
import { registerDiscoveryDocuments } from './http/discovery/routes.ts'
import { registerHealth } from './http/health.ts'
import { registerOpenApi } from './http/openapi.ts'
import { FAST, sendResult } from './http/representation.ts'
import { registerRestRoutes } from './http/rest.ts'
import { RequestLog } from './http/request-log.ts'
import { registerSecurity } from './http/security.ts'
import { registerMcp } from './mcp/route.ts'
import { registerWebRoutes } from './web/routes.ts'
import { LIMITS } from './schemas/common.ts'
import { secretlint, type SecretLibrary } from './services/secret-scan/library.ts'
import { createSecretScanner } from './services/secret-scan/scanner.ts'
import { createWalletServices } from './wallet/services.ts'
import { reclaimErasedSpace } from './store/retention.ts'
import { registerWalletPage } from './web/wallet/page.ts'
import type { Signer } from './services/receipts/signer.ts'
import { ChainKeeper } from './services/receipts/chain.ts'

export const registry = new Registry(ACTIONS)

/**
 * Pages and errors are rendered, and compressed, for the one request that asked: with the fast settings
 * of JSON answers (http/representation.ts). Under `Accept-Encoding: gzip, deflate, br` a thread's page
 * went out at 3,883–4,110/s with brotli quality 4 and at 6,369–6,691/s with quality 1.
 */
const BROTLI = { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: FAST.brotliQuality } }
const GZIP = { level: FAST.gzipLevel }

export interface AppDeps extends Omit<Runtime, 'services' | 'readCache' | 'keyGuard' | 'knownAuthors' | 'publisher'> {
  logger: Logger
  baseUrl: string
  secrets: Secrets
  secretLibrary?: SecretLibrary
  signer: Signer
}

/** The whole HTTP application as one Fastify instance; main.ts listens, tests inject or listen. */
export async function buildApp(deps: AppDeps): Promise<{ app: FastifyInstance; runtime: Runtime }> {
  const timeoutMs = deps.config.requestTimeoutSeconds * 1000
  const app: FastifyInstance = Fastify({
    loggerInstance: deps.logger as FastifyBaseLogger,
    genReqId: () => randomUUID(),
    bodyLimit: LIMITS.body_bytes,
    trustProxy: deps.config.trustProxy,
    // A slow client (a body trickling in at 1 byte/s) cannot hold a socket: the whole request must
    // arrive within the timeout, or Node answers 408 and closes. Node checks at this interval.
    requestTimeout: timeoutMs,
    http: { headersTimeout: timeoutMs, connectionsCheckingInterval: Math.min(1000, timeoutMs) },
    logController: new RequestLog(),
    clientErrorHandler: answerClientError,
  })
  // Shutdown finishes the requests in flight (main.ts). Their connections are told to close with the
  // answer: kept alive, each would hold app.close() until Node's keep-alive timeout (72 s) ran out.
  let closing = false
  app.addHook('preClose', (done) => {
    closing = true
    done()
  })
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (closing) reply.header('connection', 'close')
    done(null, payload)
  })

  let descriptor: Record<string, unknown> | undefined
  const services: Services = {
    baseUrl: deps.baseUrl,
    descriptor: () => (descriptor ??= buildDescriptor(registry, deps.baseUrl, deps.config, { ...deps.signer.jwk })),
    descriptorSummary: () => summarizeDescriptor(services.descriptor(), deps.baseUrl),
    alerts: createAlerts(deps),
    secrets: deps.secrets,
    secretScanner: createSecretScanner({
      library: deps.secretLibrary ?? secretlint,
      patterns: deps.config.secretPatterns,
      timeoutMs: deps.config.secretScanTimeoutMs,
      // Why it failed, in the scanner's words: never the text, never the library's own message.
      reportFailure: (reason) => deps.logger.warn({ reason }, 'secret scan unavailable; the write was refused'),
    }),
    wallet: createWalletServices(deps.config),
    reclaimErasedSpace: () => reclaimErasedSpace(deps.database.db),
    signer: deps.signer,
    chain: new ChainKeeper(deps.database, deps.signer),
  }
  const readCache = new ReadCache()
  const knownAuthors = new KnownAuthors()
  // prom-client loads only where metrics are on.
  const metricsModule = deps.config.metricsToken === null ? undefined : await import('./http/metrics.ts')
  const metrics = metricsModule?.createMetrics(readCache, deps.database, knownAuthors, () => deps.clock.now())
  const runtime: Runtime = {
    ...deps,
    services,
    readCache,
    keyGuard: new KeyGuard(),
    knownAuthors,
    publisher: new Publisher(deps.database),
    metrics,
  }

  installErrorHandling(app, registry.errorTable)
  if (metricsModule && metrics && deps.config.metricsToken !== null) {
    metricsModule.registerMetrics(app, deps.config.metricsToken, metrics)
  }
  await registerSecurity(app)
  // Everything not answered by the registry (errors, future pages) is compressed here; registry
  // answers compress themselves once per text (http/representation.ts).
  await app.register(compress, { threshold: 1024, encodings: ['br', 'gzip'], brotliOptions: BROTLI, zlibOptions: GZIP })
  await registerOpenApi(app, deps.baseUrl, registry)
  registerHealth(app, deps.database)
  registerDiscoveryDocuments(app, registry, () => runtime.services.baseUrl)
  registerRestRoutes(app, registry, runtime)
  await registerMcp(app, registry, runtime)
  registerWebRoutes(app, registry, runtime)
  registerWalletPage(app, runtime)
  app.get('/openapi.json', { schema: { hide: true }, compress: false }, async (request, reply) =>
    sendResult(request, reply, app.swagger(), 'application/json; charset=utf-8'),
  )
  await app.ready()
  return { app, runtime }
}
