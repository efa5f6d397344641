import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { TSchema } from 'typebox'
import { ServiceError } from '../core/errors.ts'
import { runAction, type Runtime } from '../core/pipeline.ts'
import type { RegisteredAction, Registry } from '../core/registry.ts'
import { normalizeAddress } from './client-address.ts'
import { routeDocs } from './openapi.ts'

/**
 * Serves every registry action over REST: one route per (method, path), dispatching POST bodies on
 * `action` and GET queries on `view`. Validation happens in the pipeline (shared with MCP), so the
 * route schemas below only document; Fastify neither validates nor serializes with them.
 */
export function registerRestRoutes(app: FastifyInstance, registry: Registry, runtime: Runtime): void {
  for (const { method, path } of registry.paths()) {
    const entries = registry.at(method, path)
    app.route({
      method,
      url: path,
      schema: routeDocs(method, path, entries),
      validatorCompiler: () => () => true,
      serializerCompiler: () => (data) => JSON.stringify(data),
      handler: async (request, reply) => {
        const entry = method === 'POST' ? byAction(entries, request.body) : byView(entries, request.query)
        const input = method === 'POST' ? request.body : knownParams(entry, request.query)
        const result = await runAction(runtime, entry, input, {
          clientAddress: normalizeAddress(request.ip),
          source: method === 'POST' ? 'body' : 'query',
        })
        const http = entry.def.http
        reply.type(http.method === 'GET' && http.contentType ? http.contentType : 'application/json; charset=utf-8')
        return reply.send(serialize(result))
      },
    })
  }
}

/**
 * Cached read results are shared objects (core/read-cache.ts), so their JSON text can be shared too:
 * a hit then skips serialization. Entries go with their objects when the cache lets them go.
 */
const serialized = new WeakMap<object, string>()

function serialize(result: unknown): string {
  if (typeof result !== 'object' || result === null) return JSON.stringify(result)
  let text = serialized.get(result)
  if (text === undefined) {
    text = JSON.stringify(result)
    serialized.set(result, text)
  }
  return text
}

function byAction(entries: RegisteredAction[], body: unknown): RegisteredAction {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new ServiceError('invalid_request', 'The body must be a JSON object with an "action" field.')
  }
  const name = (body as Record<string, unknown>).action
  if (typeof name !== 'string') {
    throw new ServiceError('invalid_request', 'The body needs an "action" field naming what to do.', {
      details: [{ path: '/action', message: 'required field "action" is missing' }],
    })
  }
  const entry = entries.find((e) => e.def.name === name)
  if (!entry) {
    throw new ServiceError(
      'unknown_action',
      `Unknown action "${name.slice(0, 60)}". Known: ${entries.map((e) => e.def.name).join(', ')}.`,
    )
  }
  return entry
}

function byView(entries: RegisteredAction[], query: unknown): RegisteredAction {
  const view = (query as Record<string, unknown> | undefined)?.view
  const wanted = typeof view === 'string' && view !== '' ? view : undefined
  const entry = entries.find((e) => e.def.http.method === 'GET' && e.def.http.view === wanted)
  if (entry) return entry
  const known = entries.flatMap((e) => (e.def.http.method === 'GET' && e.def.http.view ? [e.def.http.view] : []))
  throw new ServiceError(
    'invalid_request',
    `Unknown view "${String(wanted).slice(0, 60)}". Known views: ${known.join(', ')}.`,
    {
      details: [{ path: '/view', message: 'unknown view' }],
    },
  )
}

/** Unknown query parameters are ignored; only the action's own ones are validated. */
function knownParams(entry: RegisteredAction, query: unknown): Record<string, unknown> {
  const properties = (entry.def.input as TSchema & { properties?: Record<string, unknown> }).properties ?? {}
  const source = (query ?? {}) as Record<string, unknown>
  const picked: Record<string, unknown> = {}
  for (const name of Object.keys(properties)) {
    const value = source[name]
    if (value !== undefined) picked[name] = Array.isArray(value) ? value[value.length - 1] : value
  }
  return picked
}

export type { FastifyRequest }
