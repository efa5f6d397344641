import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js'
import { post, startServer, type TestServer } from '../support/harness.ts'
import { callTool, connectMcp, rawRpc, type McpSession } from '../support/mcp.ts'
import { op } from '../support/operator.ts'

type ErrorBody = { error: { code: string; message: string; details?: unknown[] }; retry_after_seconds?: number }

const contribution = { room: 'connection', kind: 'conversation', content: 'hello', client_id: 'e-1' }

describe('MCP tool errors and masking', () => {
  let t: TestServer
  let mcp: McpSession
  let me: { id: string; key: string }
  before(async () => {
    t = await startServer()
    me = await t.join('Erin', 'model-e')
    mcp = await connectMcp(t.url)
  })
  after(async () => {
    await mcp.close()
    await t.close()
  })

  async function count(): Promise<number> {
    const history = await t.view<{ timeline: unknown[] }>('history', { limit: 200 })
    return history.body.timeline.length
  }

  test('a bad key is a tool error with the REST code and message, and nothing is stored', async () => {
    const before = await count()
    const args = { ...contribution, key: 'clr_not-a-real-key' }
    const outcome = await callTool<ErrorBody>(mcp, 'contribute', args)
    const rest = await t.act<ErrorBody>('contribute', args)
    assert.equal(outcome.isError, true)
    assert.equal(rest.status, 403)
    assert.equal(outcome.body.error.code, 'invalid_key')
    assert.deepEqual(outcome.body, rest.body)
    assert.equal(outcome.result.structuredContent, undefined)
    assert.equal(await count(), before)
  })

  test('before 2025-11-25 (or with no version header) invalid tool arguments are JSON-RPC -32602', async () => {
    for (const version of [undefined, '2025-03-26', '2025-06-18']) {
      const reply = await fetch(`${t.url}/api/mcp`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...(version ? { 'mcp-protocol-version': version } : {}),
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 7,
          method: 'tools/call',
          params: { name: 'contribute', arguments: { key: me.key, room: 'attic' } },
        }),
      })
      const body = (await reply.json()) as { error?: { code: number; data?: ErrorBody } }
      assert.equal(body.error?.code, -32602, String(version))
      assert.equal(body.error?.data?.error.code, 'invalid_request')
    }
  })

  test('malformed tools/call and tools/list params are -32602 Invalid params in every version, never -32603', async () => {
    const before = await count()
    const malformed: Array<[string, unknown]> = [
      ['arguments null', { name: 'contribute', arguments: null }],
      ['arguments an array', { name: 'contribute', arguments: [me.key, 'hello'] }],
      ['arguments a string', { name: 'contribute', arguments: JSON.stringify({ ...contribution, key: me.key }) }],
      ['arguments a number', { name: 'read_arrival', arguments: 7 }],
      ['name missing', { arguments: {} }],
      ['name a number', { name: 5, arguments: {} }],
      ['params missing', undefined],
    ]
    for (const version of [undefined, '2025-06-18', '2025-11-25']) {
      for (const [label, params] of malformed) {
        const reply = await rawRpc(t.url, { jsonrpc: '2.0', id: 9, method: 'tools/call', params }, version)
        const what = `${label} (${String(version)}): ${JSON.stringify(reply.body)}`
        assert.equal(reply.status, 200, what)
        assert.equal(reply.body.id, 9, what)
        assert.equal(reply.body.error?.code, ErrorCode.InvalidParams, what)
        assert.ok(!reply.body.error?.message.includes(me.key), 'the key is not echoed')
      }
      const list = await rawRpc(t.url, { jsonrpc: '2.0', id: 10, method: 'tools/list', params: { cursor: 5 } }, version)
      assert.equal(list.body.error?.code, ErrorCode.InvalidParams, JSON.stringify(list.body))
      assert.match(list.body.error?.message ?? '', /\/params\/cursor/)
    }
    assert.equal(await count(), before)
  })

  test('malformed params of every other request the server answers are -32602 naming the field, never -32603', async () => {
    const malformed: Array<[string, unknown, RegExp]> = [
      [
        'initialize',
        { protocolVersion: 5, capabilities: {}, clientInfo: { name: 'x', version: '1' } },
        /\/params\/protocolVersion/,
      ],
      ['initialize', undefined, /\/params/],
      ['initialize', { protocolVersion: '2025-06-18', capabilities: [], clientInfo: {} }, /\/params\/clientInfo/],
      ['resources/list', { cursor: 5 }, /\/params\/cursor/],
      ['resources/read', {}, /\/params\/uri/],
      ['resources/read', { uri: ['a'] }, /\/params\/uri/],
    ]
    for (const version of [undefined, '2025-06-18', '2025-11-25']) {
      for (const [method, params, names] of malformed) {
        const reply = await rawRpc(t.url, { jsonrpc: '2.0', id: 11, method, params }, version)
        const what = `${method} ${JSON.stringify(params)} (${String(version)}): ${JSON.stringify(reply.body)}`
        assert.equal(reply.status, 200, what)
        assert.equal(reply.body.id, 11, what)
        assert.equal(reply.body.error?.code, ErrorCode.InvalidParams, what)
        assert.match(reply.body.error?.message ?? '', names, what)
      }
    }
  })

  test('input validation failures are tool errors (2025-11-25), matching REST', async () => {
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['missing field', { key: me.key, room: 'connection', kind: 'conversation', client_id: 'x' }, '/content'],
      ['extra field', { ...contribution, key: me.key, mood: 'sunny' }, '/mood'],
      ['too long', { ...contribution, key: me.key, content: 'x'.repeat(4001) }, '/content'],
      ['unknown room', { ...contribution, key: me.key, room: 'attic' }, '/room'],
      ['another action named', { ...contribution, key: me.key, action: 'join' }, '/action'],
    ]
    const before = await count()
    for (const [label, args, path] of cases) {
      const outcome = await callTool<ErrorBody>(mcp, 'contribute', args)
      assert.equal(outcome.isError, true, label)
      assert.equal(outcome.body.error.code, 'invalid_request', label)
      assert.ok(JSON.stringify(outcome.body.error.details).includes(path), `${label}: ${outcome.text}`)
      if (label === 'another action named') continue
      const rest = await t.act<ErrorBody>('contribute', args)
      assert.deepEqual(outcome.body, rest.body, label)
    }
    const wrongType = await callTool<ErrorBody>(mcp, 'read_thread', { contribution_id: '5' })
    assert.equal(wrongType.body.error.code, 'invalid_request', 'MCP arguments are JSON: no coercion')
    assert.equal(await count(), before)
  })

  test('domain errors keep their code: not_found, rate_limited with retry_after_seconds', async () => {
    const missing = await callTool<ErrorBody>(mcp, 'read_thread', { contribution_id: 999999 })
    assert.equal(missing.body.error.code, 'not_found')
    assert.deepEqual(missing.body, (await t.view('thread', { contribution_id: 999999 })).body)

    t.clock.advance(31)
    const first = await callTool(mcp, 'contribute', { ...contribution, key: me.key, client_id: 'rl-1' })
    assert.equal(first.isError, false, first.text)
    const second = await callTool<ErrorBody>(mcp, 'contribute', { ...contribution, key: me.key, client_id: 'rl-2' })
    assert.equal(second.body.error.code, 'rate_limited')
    assert.ok((second.body.retry_after_seconds ?? 0) >= 60)
  })

  test('an unknown tool is a protocol error, not a tool result', async () => {
    await assert.rejects(
      mcp.client.callTool({ name: 'drop_tables', arguments: {} }),
      (err: unknown) => err instanceof McpError && err.code === ErrorCode.InvalidParams,
    )
  })

  test('a quarantined contribution is masked in every MCP read', async () => {
    const secret = 'text the operators quarantined'
    const id = (await post(t, me.key, { content: secret })).body.id
    // Read first, so a cached page that missed the quarantine would show.
    assert.ok(JSON.stringify(await callTool(mcp, 'read_thread', { contribution_id: id })).includes(secret))
    assert.equal(
      (await op(t, 'quarantine', { reason_code: 'other', target_type: 'contribution', target_id: id, reason: 'test' }))
        .status,
      200,
    )

    const reads: Array<[string, Record<string, unknown>]> = [
      ['read_thread', { contribution_id: id }],
      ['read_shared_history', { after: id - 1 }],
      ['read_arrival', {}],
      ['read_descriptor', {}],
    ]
    for (const [tool, args] of reads) {
      const outcome = await callTool(mcp, tool, args)
      assert.equal(outcome.isError, false, outcome.text)
      assert.ok(!outcome.text.includes(secret), `${tool} leaks quarantined text`)
      const found = JSON.stringify(outcome.body).includes(`"id":${id},`)
      assert.ok(found, `${tool} still lists the contribution with its id`)
    }
    const thread = await callTool<{ root: Record<string, unknown> }>(mcp, 'read_thread', { contribution_id: id })
    assert.equal(thread.body.root.content, null)
    assert.equal(thread.body.root.quarantined, true)
    assert.equal(thread.body.root.participant_id, me.id)
  })
})
