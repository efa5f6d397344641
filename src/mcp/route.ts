import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify'
import { once } from '../services/once.ts'
import type { Runtime } from '../core/pipeline.ts'
import type { Registry } from '../core/registry.ts'
import { normalizeAddress } from '../http/client-address.ts'
import { MCP_DOCS, NOT_ALLOWED_DOCS } from './docs.ts'
import { originPolicy } from './origin.ts'
import { selectToolsets, TOOLSET_NAMES, type ToolsetName } from '../core/toolsets.ts'
import { buildTools, type McpTool } from './tools.ts'

export const MCP_PATH = '/api/mcp'

/** The SDK (with zod, some 30 MB) loads with the first MCP request (services/once.ts). */
const sdk = once(async () => ({
  createMcpServer: (await import('./server.ts')).createMcpServer,
  refuseMalformedParams: (await import('./params.ts')).refuseMalformedParams,
  Transport: (await import('@modelcontextprotocol/sdk/server/streamableHttp.js')).StreamableHTTPServerTransport,
}))

/** JSON-RPC error codes: -32700 parse error, -32000 server-defined transport error, -32603 internal. */
function rpcError(reply: FastifyReply, status: number, code: number, message: string): FastifyReply {
  return reply
    .code(status)
    .type('application/json; charset=utf-8')
    .send({ jsonrpc: '2.0', error: { code, message }, id: null })
}

/**
 * POST /api/mcp: stateless streamable-HTTP MCP. Each request gets a fresh server and transport and
 * keeps nothing afterwards, so any instance behind a load balancer can answer any request. Lives in
 * its own Fastify scope so transport-level failures answer as JSON-RPC errors, not REST bodies.
 */
export async function registerMcp(app: FastifyInstance, registry: Registry, runtime: Runtime): Promise<void> {
  const tools = buildTools(registry)
  const bySets = new Map<string, ReadonlyMap<string, McpTool>>()
  const servedBy = (sets: readonly ToolsetName[]): ReadonlyMap<string, McpTool> => {
    const id = sets.join(',')
    let served = bySets.get(id)
    if (!served) {
      served = new Map([...tools].filter(([, tool]) => sets.includes(tool.toolset)))
      bySets.set(id, served)
    }
    return served
  }
  const policy = originPolicy(runtime.config, () => runtime.services.baseUrl)

  await app.register(async (scope) => {
    scope.addHook('onRequest', async (request, reply) => {
      if (policy.allows({ origin: request.headers.origin, host: request.headers.host })) return
      return rpcError(reply, 403, -32000, 'Forbidden: this Origin or Host may not use the MCP endpoint.')
    })
    scope.setErrorHandler((err: FastifyError, request, reply) => transportError(err, request.log, reply))

    const noValidation = {
      validatorCompiler: () => () => true,
      serializerCompiler: () => (data: unknown) => JSON.stringify(data),
    }

    scope.post(MCP_PATH, { schema: MCP_DOCS, ...noValidation }, async (request, reply) => {
      const version = request.headers['mcp-protocol-version']
      const { toolsets } = request.query as { toolsets?: unknown }
      const selected = selectToolsets(typeof toolsets === 'string' ? toolsets : undefined)
      if (toolsets !== undefined && typeof toolsets !== 'string') {
        return rpcError(reply, 400, -32000, 'toolsets is given more than once: send one comma-separated list.')
      }
      if (selected.unknown) {
        const names = selected.unknown.map((name) => JSON.stringify(name.slice(0, 40))).join(', ')
        return rpcError(
          reply,
          400,
          -32000,
          `Unknown toolset ${names}: toolsets takes a comma-separated list of ${TOOLSET_NAMES.join(', ')}, or all.`,
        )
      }
      const bearer = bearerKey(request.headers.authorization)
      if (bearer === null) {
        return rpcError(reply, 400, -32000, 'Authorization must be "Bearer <participation key>" on the MCP endpoint.')
      }
      const { createMcpServer, refuseMalformedParams, Transport } = await sdk()
      const server = createMcpServer(
        runtime,
        { served: servedBy(selected.sets ?? []), all: tools, statuses: registry.errorTable },
        {
          clientAddress: normalizeAddress(request.ip),
          log: request.log,
          protocolVersion: typeof version === 'string' ? version : undefined,
          bearerKey: bearer,
        },
      )
      const transport = new Transport({ sessionIdGenerator: undefined, enableJsonResponse: true })
      reply.raw.on('close', () => {
        server.close().catch((err: unknown) => request.log.warn({ err }, 'closing the MCP server failed'))
      })
      await server.connect(transport)
      refuseMalformedParams(transport)
      // hijack() hands the raw response to the transport; headers set so far (CORS, security,
      // request id) would be lost without copying them over first.
      for (const [name, value] of Object.entries(reply.getHeaders())) {
        if (value !== undefined) reply.raw.setHeader(name, value)
      }
      reply.hijack()
      try {
        await transport.handleRequest(request.raw, reply.raw, request.body)
      } catch (err) {
        request.log.error({ err }, 'MCP transport failed')
        if (!reply.raw.headersSent) {
          reply.raw.writeHead(500, { 'content-type': 'application/json' })
          reply.raw.end(
            JSON.stringify({ jsonrpc: '2.0', error: { code: -32603, message: 'Internal error' }, id: null }),
          )
        }
      }
    })

    // Stateless servers open no SSE stream and hold no session to delete (MCP transports spec).
    scope.route({
      method: ['GET', 'DELETE', 'PUT', 'PATCH'],
      url: MCP_PATH,
      schema: NOT_ALLOWED_DOCS,
      ...noValidation,
      handler: async (_request, reply) =>
        rpcError(
          reply.header('allow', 'POST'),
          405,
          -32000,
          'Method not allowed: this stateless server only answers POST.',
        ),
    })
  })
}

/**
 * The participation key of `Authorization: Bearer <key>`: undefined without the header, null when the
 * header is not of that form. The key itself is never logged or echoed.
 */
function bearerKey(header: string | undefined): string | undefined | null {
  if (header === undefined) return undefined
  const match = /^Bearer +(\S+) *$/i.exec(header)
  return match?.[1] ?? null
}

function transportError(err: FastifyError, log: FastifyInstance['log'], reply: FastifyReply): FastifyReply {
  switch (err.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return rpcError(reply, 400, -32700, 'Parse error: the body is not valid JSON.')
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return rpcError(reply, 413, -32000, 'Payload too large: the body is over 64 KiB.')
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return rpcError(reply, 415, -32000, 'Unsupported Media Type: send Content-Type: application/json.')
  }
  if (err instanceof SyntaxError) return rpcError(reply, 400, -32700, 'Parse error: the body is not valid JSON.')
  const status = err.statusCode ?? 500
  if (status >= 400 && status < 500) return rpcError(reply, status, -32000, 'Bad Request.')
  log.error({ err }, 'MCP request failed')
  return rpcError(reply, 500, -32603, 'Internal error')
}
