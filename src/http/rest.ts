import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { TSchema } from 'typebox'
import { ServiceError } from '../services/errors.ts'
import { httpAnswerOf } from '../services/http-answer.ts'
import { observed } from '../core/metrics.ts'
import { runAction, type Runtime } from '../core/pipeline.ts'
import { quotaStateOf } from '../services/quota.ts'
import { quotaPolicies } from '../core/quota-policies.ts'
import type { RegisteredAction, Registry } from '../core/registry.ts'
import { applyAnswer, inputWithRequestFields } from './answers.ts'
import { normalizeAddress } from './client-address.ts'
import { actionDocs, routeDocs } from './openapi.ts'
import { aliasPath } from './openapi-components.ts'
import { policyField, stateField } from './quota-headers.ts'
import { sendResult } from './representation.ts'

/** Validation happens in the pipeline (shared with MCP): route schemas only document. */
const DOCUMENT_ONLY = {
  validatorCompiler: () => () => true,
  serializerCompiler: () => (data: unknown) => JSON.stringify(data),
  // Registry answers are compressed by sendResult, once per text, with an ETag per encoding.
  compress: false as const,
}

/**
 * Serves every registry action over REST: one route per (method, path), dispatching POST bodies on
 * `action` and GET queries on `view`. Where a path serves several actions, each also gets a path of
 * its own (`/api/clearing/contribute`, `/api/clearing/history`) that runs the same action through
 * the same pipeline, so generated clients get one request and one result type per operation.
 */
export function registerRestRoutes(app: FastifyInstance, registry: Registry, runtime: Runtime): void {
  const policies = new Map(registry.all.map((entry) => [entry, policyField(quotaPolicies(entry, runtime.config))]))
  const serve = (entry: RegisteredAction, request: FastifyRequest, reply: FastifyReply, body: unknown) =>
    serveAction(runtime, entry, policies.get(entry), request, reply, body)
  for (const { method, path } of registry.paths()) {
    const entries = registry.at(method, path)
    app.route({
      method,
      url: path,
      schema: routeDocs(registry.errorTable, method, path, entries),
      ...DOCUMENT_ONLY,
      handler: async (request, reply) => {
        const entry = method === 'POST' ? byAction(entries, request.body) : byView(entries, request.query)
        return serve(entry, request, reply, request.body)
      },
    })
    for (const entry of entries) {
      const alias = aliasPath(registry, entry.def)
      if (alias === undefined) continue
      app.route({
        method,
        url: alias,
        schema: actionDocs(registry.errorTable, entry, true),
        ...DOCUMENT_ONLY,
        handler: async (request, reply) => serve(entry, request, reply, withAction(entry, request.body)),
      })
    }
  }
}

/**
 * Runs one action for a request. The action's quota policies go out on every answer, refusals
 * included (the error handler keeps headers set before it); the caller's state in one, when the
 * result or refusal tells it (services/quota.ts), as RateLimit (errors: http/errors.ts).
 */
async function serveAction(
  runtime: Runtime,
  entry: RegisteredAction,
  policies: string | undefined,
  request: FastifyRequest,
  reply: FastifyReply,
  body: unknown,
): Promise<FastifyReply> {
  if (policies) reply.header('ratelimit-policy', policies)
  const http = entry.def.http
  const input =
    http.method === 'POST' ? inputWithRequestFields(entry, request, body) : knownParams(entry, request.query)
  const result = await observed(runtime.metrics, entry.def.name, 'rest', () =>
    runAction(runtime, entry, input, {
      clientAddress: normalizeAddress(request.ip),
      source: http.method === 'POST' ? 'body' : 'query',
    }),
  )
  const state = quotaStateOf(result)
  if (state) reply.header('ratelimit', stateField(state))
  // A result may ask for another status, headers or a cookie (services/http-answer.ts: x402's 402).
  const answer = httpAnswerOf(result)
  if (answer) applyAnswer(reply, answer)
  const contentType = http.method === 'GET' && http.contentType ? http.contentType : 'application/json'
  return sendResult(request, reply, result, `${contentType}; charset=utf-8`)
}

/**
 * On an action's own path the path names the action. A body that names another one keeps its value
 * and fails validation, as over MCP: nothing is silently rewritten.
 */
function withAction(entry: RegisteredAction, body: unknown): unknown {
  if (entry.def.http.method !== 'POST') return body
  if (body === undefined || body === null) return { action: entry.def.name }
  if (typeof body !== 'object' || Array.isArray(body)) {
    throw new ServiceError('invalid_request', 'The body must be a JSON object.')
  }
  return { action: entry.def.name, ...body }
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
    wanted === undefined
      ? `This path needs the query parameter view. Known views: ${known.join(', ')}.`
      : `Unknown view "${wanted.slice(0, 60)}". Known views: ${known.join(', ')}.`,
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
