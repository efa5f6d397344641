import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'

export interface McpSession {
  client: Client
  transport: StreamableHTTPClientTransport
  close(): Promise<void>
}

/**
 * A real MCP client (the SDK's own Client and transport) connected to /api/mcp. Tools are listed
 * once so the client validates every structuredContent against the tool's outputSchema.
 * `fetch` lets a test spread the requests of one client over several servers. `toolsets` is the
 * query value (default `all`, so tests reach every tool; '' connects to the default set), and
 * `headers` go on every request (an Authorization header, say).
 */
export async function connectMcp(
  baseUrl: string,
  options: { fetch?: typeof fetch; toolsets?: string; headers?: Record<string, string> } = {},
): Promise<McpSession> {
  const url = new URL('/api/mcp', baseUrl)
  const toolsets = options.toolsets ?? 'all'
  if (toolsets) url.searchParams.set('toolsets', toolsets)
  const transport = new StreamableHTTPClientTransport(url, {
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.headers ? { requestInit: { headers: options.headers } } : {}),
  })
  const client = new Client({ name: 'clearing-tests', version: '1.0.0' })
  await client.connect(transport)
  await client.listTools()
  return { client, transport, close: () => client.close() }
}

export interface ToolOutcome<T = Record<string, unknown>> {
  result: CallToolResult
  isError: boolean
  /** structuredContent on success; the parsed REST error body on a tool error. */
  body: T
  /** All text blocks joined: what a model would read. */
  text: string
}

export async function callTool<T = Record<string, unknown>>(
  session: McpSession,
  name: string,
  args: Record<string, unknown> = {},
): Promise<ToolOutcome<T>> {
  const result = (await session.client.callTool({ name, arguments: args })) as CallToolResult
  const texts = result.content.flatMap((block) => (block.type === 'text' ? [block.text] : []))
  const isError = result.isError === true
  const body = (isError ? JSON.parse(texts.at(-1) ?? 'null') : result.structuredContent) as T
  return { result, isError, body, text: texts.join('\n') }
}

export interface RpcReply {
  status: number
  body: { id?: unknown; result?: CallToolResult; error?: { code: number; message: string; data?: unknown } }
}

/** One raw JSON-RPC request to /api/mcp, for messages a well-behaved SDK client would never send. */
export async function rawRpc(baseUrl: string, message: unknown, protocolVersion?: string): Promise<RpcReply> {
  const reply = await fetch(new URL('/api/mcp', baseUrl), {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(protocolVersion ? { 'mcp-protocol-version': protocolVersion } : {}),
    },
    body: JSON.stringify(message),
  })
  return { status: reply.status, body: (await reply.json()) as RpcReply['body'] }
}
