import type { FastifySchema } from 'fastify'
import { DEFAULT_TOOLSET, TOOLSET_NAMES } from '../core/toolsets.ts'

/** Documentation-only schemas for /openapi.json; the MCP SDK validates the JSON-RPC itself. */
const JsonRpcMessage = {
  type: 'object',
  required: ['jsonrpc'],
  properties: {
    jsonrpc: { type: 'string', enum: ['2.0'] },
    id: { type: ['string', 'integer'] },
    method: {
      type: 'string',
      description: 'initialize, notifications/initialized, ping, tools/list or tools/call.',
    },
    params: { type: 'object' },
  },
}

const JsonRpcError = {
  type: 'object',
  description: 'A JSON-RPC error with no id.',
  properties: {
    jsonrpc: { type: 'string', enum: ['2.0'] },
    error: { type: 'object', properties: { code: { type: 'integer' }, message: { type: 'string' } } },
    id: { type: 'null' },
  },
}

export const MCP_DOCS: FastifySchema = {
  summary: 'MCP (Model Context Protocol), stateless streamable HTTP',
  operationId: 'mcp',
  tags: ['mcp'],
  description:
    'JSON-RPC 2.0 over POST; protocol versions 2025-03-26, 2025-06-18 and 2025-11-25, negotiated at initialize. ' +
    'Send Accept: application/json, text/event-stream; answers are application/json. No session: every request stands ' +
    'alone. Tools adapt the actions of /api/clearing. The query toolsets (comma-separated, or all) picks the ' +
    'toolsets listed; without it, participation. The participation key is the tool argument key or ' +
    '"Authorization: Bearer <key>" on this request (both given and different: a tool error); review_key is an argument. ' +
    'A present Origin must be allow-listed (MCP_ALLOWED_ORIGINS), else 403.',
  querystring: {
    type: 'object',
    properties: {
      toolsets: {
        type: 'string',
        description: `Comma-separated toolsets to list (default ${DEFAULT_TOOLSET}): ${TOOLSET_NAMES.join(', ')}; or all.`,
      },
    },
  },
  body: {
    description: 'A JSON-RPC request or notification, or a batch of them.',
    oneOf: [JsonRpcMessage, { type: 'array', items: JsonRpcMessage }],
  },
  response: {
    200: {
      description: 'JSON-RPC response (tool errors come back as results with isError true).',
      type: ['object', 'array'],
    },
    202: { description: 'Accepted: the body held only notifications or responses.', type: 'null' },
    400: {
      ...JsonRpcError,
      description:
        'Parse error, an unsupported MCP-Protocol-Version header, an unknown toolset, or an Authorization header that is not Bearer.',
    },
    403: { ...JsonRpcError, description: 'Origin (or, on a loopback-bound server, Host) not allowed.' },
    406: { ...JsonRpcError, description: 'Accept must list application/json and text/event-stream.' },
    413: { ...JsonRpcError, description: 'Body over 64 KiB.' },
    415: { ...JsonRpcError, description: 'Content-Type must be application/json.' },
  },
}

export const NOT_ALLOWED_DOCS: FastifySchema = {
  hide: true,
  response: { 405: { ...JsonRpcError, description: 'Only POST is served: no SSE stream, no session.' } },
}
