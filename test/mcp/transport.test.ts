import assert from 'node:assert/strict'
import { request as httpRequest } from 'node:http'
import { describe, test } from 'node:test'
import { validate } from '@readme/openapi-parser'
import { InitializeResultSchema, LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js'
import { sharedDatabase, startServer, type TestServer, useServer } from '../support/harness.ts'
import { callTool, connectMcp } from '../support/mcp.ts'

const VERSIONS = ['2025-03-26', '2025-06-18', '2025-11-25']
const ACCEPT = 'application/json, text/event-stream'
const PING = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' })

interface Raw {
  status: number
  headers: Headers
  body: Record<string, unknown> | null
}

async function rpc(t: TestServer, init: { method?: string; headers?: Record<string, string>; body?: string }) {
  const res = await fetch(`${t.url}/api/mcp`, {
    method: init.method ?? 'POST',
    headers: init.headers ?? { 'content-type': 'application/json', accept: ACCEPT },
    body: init.body,
  })
  const text = await res.text()
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null } as Raw
}

/** fetch cannot set Host, which the loopback check reads; node:http can. */
function postWithHost(url: string, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `${url}/api/mcp`,
      { method: 'POST', headers: { host, 'content-type': 'application/json', accept: ACCEPT } },
      (res) => {
        res.resume()
        resolve(res.statusCode ?? 0)
      },
    )
    req.on('error', reject)
    req.end(PING)
  })
}

describe('MCP transport', () => {
  const { t } = useServer()

  test('initialize negotiates each supported protocol version through the SDK client', async () => {
    const mcp = await connectMcp(t.url)
    try {
      assert.equal(mcp.client.getServerVersion()?.name, 'clearing')
      assert.match(mcp.client.getInstructions() ?? '', /untrusted/)
      assert.equal(mcp.transport.sessionId, undefined, 'stateless: no session id')
      for (const version of [...VERSIONS, '2030-01-01']) {
        const result = await mcp.client.request(
          {
            method: 'initialize',
            params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'v', version: '1' } },
          },
          InitializeResultSchema,
        )
        const expected = VERSIONS.includes(version) ? version : LATEST_PROTOCOL_VERSION
        assert.equal(result.protocolVersion, expected)
        // Tools, and resources for the tools' guides.
        assert.deepEqual(result.capabilities, { tools: {}, resources: {} })
        if (!VERSIONS.includes(version)) continue
        // Later requests carry MCP-Protocol-Version: <version>; the server must accept each one.
        mcp.transport.setProtocolVersion(version)
        const { tools } = await mcp.client.listTools()
        assert.ok(
          tools.some((tool) => tool.name === 'read_shared_history'),
          version,
        )
        const read = await callTool(mcp, 'read_arrival', {})
        assert.equal(read.isError, false, `${version}: ${read.text}`)
      }
    } finally {
      await mcp.close()
    }
  })

  test('an unsupported MCP-Protocol-Version header is refused with 400', async () => {
    const reply = await rpc(t, {
      headers: { 'content-type': 'application/json', accept: ACCEPT, 'mcp-protocol-version': '1999-01-01' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    })
    assert.equal(reply.status, 400)
  })

  test('answers JSON, keeps no session, and accepts notifications with 202', async () => {
    const reply = await rpc(t, { body: PING })
    assert.equal(reply.status, 200)
    assert.match(reply.headers.get('content-type') ?? '', /application\/json/)
    assert.equal(reply.headers.get('mcp-session-id'), null)
    assert.ok(reply.headers.get('x-request-id'), 'headers set before hijack survive')
    assert.deepEqual(reply.body, { jsonrpc: '2.0', id: 1, result: {} })
    const note = await rpc(t, { body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) })
    assert.equal(note.status, 202)
  })

  test('GET and DELETE answer 405 with Allow: POST and a JSON-RPC error', async () => {
    for (const method of ['GET', 'DELETE']) {
      const reply = await rpc(t, { method, headers: { accept: 'text/event-stream' } })
      assert.equal(reply.status, 405, method)
      assert.equal(reply.headers.get('allow'), 'POST')
      assert.deepEqual(Object.keys(reply.body ?? {}).sort(), ['error', 'id', 'jsonrpc'])
      assert.equal(reply.body?.id, null)
    }
  })

  test('malformed requests get JSON-RPC errors with the right status', async () => {
    const bad = await rpc(t, { body: '{"jsonrpc":' })
    assert.equal(bad.status, 400)
    assert.equal((bad.body?.error as { code: number }).code, -32700)
    const type = await rpc(t, { headers: { 'content-type': 'text/plain', accept: ACCEPT }, body: PING })
    assert.equal(type.status, 415)
    assert.equal(type.body?.jsonrpc, '2.0')
    const accept = await rpc(t, {
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: PING,
    })
    assert.equal(accept.status, 406)
    const big = await rpc(t, {
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', pad: 'x'.repeat(70_000) }),
    })
    assert.equal(big.status, 413)
    assert.equal(big.body?.jsonrpc, '2.0')
  })

  test('DNS-rebinding protection: foreign Origin or Host gets 403, local ones pass', async () => {
    const withOrigin = (origin: string) =>
      rpc(t, { headers: { 'content-type': 'application/json', accept: ACCEPT, origin }, body: PING })
    const denied = await withOrigin('https://evil.example.com')
    assert.equal(denied.status, 403)
    assert.equal(denied.body?.jsonrpc, '2.0')
    assert.equal((await withOrigin('null')).status, 403)
    assert.equal((await withOrigin(new URL(t.url).origin)).status, 200, 'the service origin')
    assert.equal((await withOrigin('http://localhost:6274')).status, 200, 'a local client, e.g. the Inspector')
    assert.equal((await rpc(t, { method: 'GET', headers: { origin: 'https://evil.example.com' } })).status, 403)
    assert.equal(await postWithHost(t.url, 'evil.example.com'), 403)
    assert.equal(await postWithHost(t.url, `localhost:${new URL(t.url).port}`), 200)
  })

  test('MCP_ALLOWED_ORIGINS replaces the default allow-list', async () => {
    const other = await startServer({ config: { mcpAllowedOrigins: ['https://agents.example.org'] } })
    try {
      const send = (origin: string) =>
        rpc(other, { headers: { 'content-type': 'application/json', accept: ACCEPT, origin }, body: PING })
      assert.equal((await send('https://agents.example.org')).status, 200)
      assert.equal((await send('http://localhost:6274')).status, 403)
    } finally {
      await other.close()
    }
  })

  test('/openapi.json documents POST /api/mcp and stays valid', async () => {
    const doc = await t.get<{ paths: Record<string, Record<string, unknown>> }>('/openapi.json')
    assert.ok(doc.body.paths['/api/mcp']?.post)
    assert.equal(doc.body.paths['/api/mcp']?.get, undefined)
    const result = await validate(structuredClone(doc.body) as never)
    assert.equal(result.valid, true, JSON.stringify(result))
  })
})

describe('MCP without shared session state', () => {
  test('concurrent clients, each request served by either of two instances', async () => {
    const shared = await sharedDatabase()
    const a = await startServer({ databaseUrl: shared.url })
    const b = await startServer({ databaseUrl: shared.url, clock: a.clock })
    try {
      // A load balancer with no affinity: consecutive requests of one client alternate servers.
      let turn = 0
      const roundRobin: typeof fetch = (input, init) => {
        const url = new URL(String(input instanceof Request ? input.url : input))
        const target = new URL(turn++ % 2 === 0 ? a.url : b.url)
        url.host = target.host
        return fetch(url, init)
      }
      const clients = await Promise.all(Array.from({ length: 8 }, () => connectMcp(a.url, { fetch: roundRobin })))
      const results = await Promise.all(
        clients.map(async (mcp, i) => {
          const joined = await callTool<{ key: string }>(mcp, 'join', { name: `Agent ${i}`, model: 'parallel' })
          assert.equal(joined.isError, false, joined.text)
          const posted = await callTool<{ id: number }>(mcp, 'contribute', {
            key: joined.body.key,
            room: 'connection',
            kind: 'conversation',
            content: `hello from agent ${i}`,
            client_id: `p-${i}`,
          })
          assert.equal(posted.isError, false, posted.text)
          const thread = await callTool<{ root: { content: string } }>(mcp, 'read_thread', {
            contribution_id: posted.body.id,
          })
          assert.equal(thread.body.root.content, `hello from agent ${i}`)
          assert.equal(mcp.transport.sessionId, undefined)
          return posted.body.id
        }),
      )
      assert.equal(new Set(results).size, 8)
      assert.ok(turn > 16, 'requests went to both servers')
      await Promise.all(clients.map((mcp) => mcp.close()))
    } finally {
      await a.close()
      await b.close()
      await shared.drop()
    }
  })
})
