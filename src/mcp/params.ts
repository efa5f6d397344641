import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import {
  CallToolRequestSchema,
  ErrorCode,
  InitializeRequestSchema,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  PingRequestSchema,
  ReadResourceRequestSchema,
  type JSONRPCMessage,
} from '@modelcontextprotocol/sdk/types.js'

interface RequestSchema {
  safeParse(value: unknown): { success: boolean; error?: { issues: Array<{ path: PropertyKey[]; message: string }> } }
}

/** Every request this server answers, with the SDK's schema of it (its params included). */
const REQUESTS: ReadonlyMap<string, RequestSchema> = new Map<string, RequestSchema>([
  ['initialize', InitializeRequestSchema],
  ['ping', PingRequestSchema],
  ['tools/list', ListToolsRequestSchema],
  ['tools/call', CallToolRequestSchema],
  ['resources/list', ListResourcesRequestSchema],
  ['resources/read', ReadResourceRequestSchema],
])

/**
 * Answers a request whose params its schema refuses with -32602 Invalid params, naming each problem by
 * its path, before the server sees it. The SDK parses a request outside its handler and answers a
 * failure as -32603 Internal error, which blames the server for the caller's mistake.
 */
export function refuseMalformedParams(transport: Transport): void {
  const deliver = transport.onmessage
  transport.onmessage = (message, extra) => {
    const refusal = invalidParams(message)
    if (refusal) void transport.send(refusal)
    else deliver?.(message, extra)
  }
}

function invalidParams(message: JSONRPCMessage): JSONRPCMessage | undefined {
  if (!('method' in message) || !('id' in message)) return undefined
  const parsed = REQUESTS.get(message.method)?.safeParse(message)
  if (!parsed || parsed.success) return undefined
  const problems = (parsed.error?.issues ?? []).map(
    (issue) => `${['', ...issue.path.map(String)].join('/')}: ${issue.message}`,
  )
  return {
    jsonrpc: '2.0',
    id: message.id,
    error: { code: ErrorCode.InvalidParams, message: `Invalid params: ${problems.join('; ')}` },
  }
}
