import { randomUUID } from 'node:crypto'
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify'
import type { Logger } from 'pino'
import { ACTIONS } from './actions/index.ts'
import type { Services } from './core/action.ts'
import { createAlerts } from './core/alerts.ts'
import { buildDescriptor } from './core/descriptor.ts'
import type { Runtime } from './core/pipeline.ts'
import { ReadCache } from './core/read-cache.ts'
import { Registry } from './core/registry.ts'
import { installErrorHandling } from './http/errors.ts'
import { registerHealth } from './http/health.ts'
import { registerOpenApi } from './http/openapi.ts'
import { registerRestRoutes } from './http/rest.ts'
import { registerSecurity } from './http/security.ts'
import { registerMcp } from './mcp/route.ts'
import { LIMITS } from './schemas/common.ts'

export const registry = new Registry(ACTIONS)

export interface AppDeps extends Omit<Runtime, 'services' | 'readCache'> {
  logger: Logger
  baseUrl: string
}

/** The whole HTTP application as one Fastify instance; main.ts listens, tests inject or listen. */
export async function buildApp(deps: AppDeps): Promise<{ app: FastifyInstance; runtime: Runtime }> {
  const app: FastifyInstance = Fastify({
    loggerInstance: deps.logger as FastifyBaseLogger,
    genReqId: () => randomUUID(),
    bodyLimit: LIMITS.body_bytes,
    trustProxy: deps.config.trustProxy,
  })
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id)
  })

  let descriptor: Record<string, unknown> | undefined
  const services: Services = {
    baseUrl: deps.baseUrl,
    descriptor: () => (descriptor ??= buildDescriptor(registry, deps.baseUrl)),
    alerts: createAlerts(deps),
  }
  const runtime: Runtime = { ...deps, services, readCache: new ReadCache() }

  installErrorHandling(app)
  await registerSecurity(app)
  await registerOpenApi(app, deps.baseUrl)
  registerHealth(app, deps.database)
  registerRestRoutes(app, registry, runtime)
  await registerMcp(app, registry, runtime)
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger())
  await app.ready()
  return { app, runtime }
}
