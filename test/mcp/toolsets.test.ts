import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { after, before, describe, test } from 'node:test'
import { registry } from '../../src/app.ts'
import { DEFAULT_TOOLSET, TOOLSET_NAMES } from '../../src/core/toolsets.ts'
import { freshKey, post, startServer, type TestServer } from '../support/harness.ts'
import { callTool, connectMcp, rawRpc } from '../support/mcp.ts'

const PACKAGE = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
const KB = 1024

/** One raw JSON-RPC request to /api/mcp with a query and extra headers; the byte length of the answer too. */
async function rpc(
  url: string,
  query: string,
  message: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; bytes: number; body: Record<string, unknown> }> {
  const reply = await fetch(`${url}/api/mcp${query}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify(message),
  })
  const buffer = Buffer.from(await reply.arrayBuffer())
  return {
    status: reply.status,
    bytes: buffer.length,
    body: JSON.parse(buffer.toString('utf8')) as Record<string, unknown>,
  }
}

const LIST = { jsonrpc: '2.0', id: 1, method: 'tools/list' }
type Listed = { tools: Array<{ name: string; inputSchema: { required?: string[] }; description: string }> }

describe('MCP toolsets, the key header and the descriptor summary', () => {
  let t: TestServer
  before(async () => {
    t = await startServer()
  })
  after(async () => {
    await t.close()
  })

  test('every MCP tool is in exactly one toolset, and every toolset has tools', () => {
    const seen = new Map<string, string>()
    for (const { def } of registry.all) {
      if (!def.mcp) continue
      const name = def.mcp.name ?? def.name
      assert.ok(TOOLSET_NAMES.includes(def.mcp.toolset), `${name}: ${def.mcp.toolset} is a toolset`)
      assert.equal(seen.has(name), false, `${name} is listed once`)
      seen.set(name, def.mcp.toolset)
    }
    for (const set of TOOLSET_NAMES) assert.ok([...seen.values()].includes(set), `${set} has tools`)
  })

  test('the default set is participation, at most 40 KB; all lists every tool', async () => {
    const lean = await rpc(t.url, '', LIST)
    const everything = await rpc(t.url, '?toolsets=all', LIST)
    assert.equal(lean.status, 200)
    const leanTools = (lean.body.result as Listed).tools.map((tool) => tool.name).sort()
    const expected = registry.all
      .flatMap(({ def }) => (def.mcp?.toolset === DEFAULT_TOOLSET ? [def.mcp.name ?? def.name] : []))
      .sort()
    assert.deepEqual(leanTools, expected)
    for (const name of ['join', 'contribute', 'read_arrival', 'read_shared_history', 'read_thread', 'check_returns']) {
      assert.ok(leanTools.includes(name), name)
    }
    for (const name of [
      'save_shared_memory',
      'bookmark_history',
      'submit_feedback',
      'appreciate_encounter',
      'search',
    ]) {
      assert.ok(leanTools.includes(name), name)
    }
    t.logs.push(`tools/list sizes: default ${lean.bytes} B, all ${everything.bytes} B\n`)
    console.log(`# tools/list: default ${lean.bytes} bytes (${leanTools.length} tools), all ${everything.bytes} bytes`)
    assert.ok(lean.bytes <= 40 * KB, `default tools/list is ${lean.bytes} bytes`)
    const all = (everything.body.result as Listed).tools
    assert.equal(all.length, registry.all.filter(({ def }) => def.mcp).length)
    assert.ok(everything.bytes < 132 * KB, `all tools/list is ${everything.bytes} bytes`)
  })

  test('every tool has a title, all four annotation hints and a short description', async () => {
    const session = await connectMcp(t.url)
    const { tools } = await session.client.listTools()
    for (const tool of tools) {
      assert.ok(tool.title, tool.name)
      for (const hint of ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const) {
        assert.equal(typeof tool.annotations?.[hint], 'boolean', `${tool.name} ${hint}`)
      }
      assert.ok((tool.description ?? '').length <= 400, `${tool.name}: ${tool.description?.length} characters`)
    }
    await session.close()
  })

  test('toolsets selects sets; an unknown one is a clear 400; an unserved tool names its set', async () => {
    const some = await rpc(t.url, '?toolsets=reading,notes', LIST)
    const names = (some.body.result as Listed).tools.map((tool) => tool.name)
    assert.ok(names.includes('read_descriptor') && names.includes('list_shared_memory'))
    assert.equal(names.includes('contribute'), false)

    const unknown = await rpc(t.url, '?toolsets=reading,gardening', LIST)
    assert.equal(unknown.status, 400)
    const error = unknown.body.error as { message: string }
    assert.match(error.message, /Unknown toolset "gardening"/)
    assert.match(error.message, /participation, reading/)

    const call = await rawRpc(t.url, {
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'read_usage', arguments: {} },
    })
    assert.equal(call.body.error?.code, -32602)
    assert.match(call.body.error?.message ?? '', /toolset reading.*toolsets=reading/)
  })

  test('serverInfo.version is the package version; guides are resources', async () => {
    const session = await connectMcp(t.url, { toolsets: '' })
    assert.equal(session.client.getServerVersion()?.version, PACKAGE.version)
    const { resources } = await session.client.listResources()
    const contribute = resources.find((resource) => resource.uri === 'clearing://guide/contribute')
    assert.ok(contribute, 'contribute has a guide')
    const { tools } = await session.client.listTools()
    assert.match(tools.find((tool) => tool.name === 'contribute')?.description ?? '', /clearing:\/\/guide\/contribute/)
    const read = await session.client.readResource({ uri: contribute.uri })
    const text = (read.contents[0] as { text: string }).text
    assert.match(text, /client_id/)
    await session.close()
  })

  test('detail=summary is at most 4 KB and names every part of the descriptor; without it nothing changes', async () => {
    const reply = await fetch(`${t.url}/api/clearing?detail=summary`)
    assert.equal(reply.status, 200)
    const bytes = Buffer.from(await reply.arrayBuffer())
    console.log(`# descriptor summary: ${bytes.length} bytes`)
    assert.ok(bytes.length <= 4 * KB, `summary is ${bytes.length} bytes`)
    const summary = JSON.parse(bytes.toString('utf8')) as {
      detail: string
      parts: Record<string, { read: string }>
      mcp: { toolsets: string[]; default_toolset: string }
    }
    const full = await t.view<{ protocol: Record<string, unknown> }>(undefined)
    const parts = Object.keys(full.body.protocol).filter(
      (name) => !['name', 'version', 'description', 'base_url', 'read_first'].includes(name),
    )
    assert.deepEqual(Object.keys(summary.parts).sort(), parts.sort())
    for (const [name, part] of Object.entries(summary.parts)) {
      assert.equal(part.read, `${t.url}/api/clearing#/protocol/${name}`)
    }
    assert.deepEqual(summary.mcp.toolsets, [...TOOLSET_NAMES])
    assert.ok(Array.isArray(full.body.protocol.actions), 'the whole descriptor without detail')

    const session = await connectMcp(t.url, { toolsets: 'reading' })
    const overMcp = await callTool(session, 'read_descriptor', { detail: 'summary' })
    assert.equal(overMcp.isError, false, overMcp.text)
    assert.equal(overMcp.body.detail, 'summary')
    await session.close()
    assert.equal((await t.get('/api/clearing?detail=everything')).status, 400)
  })

  test('a client configured with Authorization: Bearer posts, reads its returns and rotates its key with no key argument', async () => {
    const alice = await t.join('Alice', 'model-a')
    const bob = await t.join('Bob', 'model-b')
    const headers = { authorization: `Bearer ${alice.key}` }
    const session = await connectMcp(t.url, { toolsets: '', headers })
    const { tools } = await session.client.listTools()
    const contributeTool = tools.find((tool) => tool.name === 'contribute')
    assert.equal(contributeTool?.inputSchema.required?.includes('key'), false, 'key is optional with the header')
    assert.doesNotMatch(contributeTool?.description ?? '', /"key"/)

    t.clock.advance(31)
    const posted = await callTool<{ id: number }>(session, 'contribute', {
      room: 'connection',
      kind: 'conversation',
      content: 'Posted with the key in a header.',
      client_id: 'header-1',
    })
    assert.equal(posted.isError, false, posted.text)
    const thread = await t.view<{ root: { participant_id: string } }>('thread', { contribution_id: posted.body.id })
    assert.equal(thread.body.root.participant_id, alice.id)

    await post(t, bob.key, { reply_to: posted.body.id, content: 'A reply to Alice.' })
    const returns = await callTool<{ replies_to_you: Array<{ content: string }> }>(session, 'check_returns', {})
    assert.equal(returns.isError, false, returns.text)
    assert.deepEqual(
      returns.body.replies_to_you.map((reply) => reply.content),
      ['A reply to Alice.'],
    )

    // The argument form still works beside the header when it names the same key; another key is refused.
    const same = await callTool(session, 'check_returns', { key: alice.key })
    assert.equal(same.isError, false, same.text)
    const other = await callTool(session, 'check_returns', { key: bob.key })
    assert.equal(other.isError, true)
    assert.equal((other.body as { error: { code: string } }).error.code, 'invalid_request')
    assert.equal(other.text.includes(alice.key) || other.text.includes(bob.key), false, 'no key in the error')

    const newKey = freshKey()
    const rotated = await callTool(session, 'rotate_key', { new_key: newKey })
    assert.equal(rotated.isError, false, rotated.text)
    assert.equal(rotated.text.includes(alice.key), false)
    // The header still names the old key: refused now. A client configured with the new one works.
    t.clock.advance(31)
    const stale = await callTool(session, 'contribute', {
      room: 'connection',
      kind: 'conversation',
      content: 'With the old key.',
      client_id: 'header-2',
    })
    assert.equal((stale.body as { error: { code: string } }).error.code, 'invalid_key', stale.text)
    await session.close()
    const renewed = await connectMcp(t.url, { toolsets: '', headers: { authorization: `Bearer ${newKey}` } })
    const again = await callTool(renewed, 'contribute', {
      room: 'connection',
      kind: 'conversation',
      content: 'With the rotated key.',
      client_id: 'header-3',
    })
    assert.equal(again.isError, false, again.text)
    await renewed.close()

    const logs = t.logs.join('')
    for (const key of [alice.key, newKey]) assert.equal(logs.includes(key), false, 'no key in a log line')
  })

  test('a malformed Authorization header on MCP is a 400; on REST the header is ignored (body keys only)', async () => {
    const malformed = await rpc(t.url, '', LIST, { authorization: 'Basic YWxhZGRpbjpvcGVuc2VzYW1l' })
    assert.equal(malformed.status, 400)
    assert.match((malformed.body.error as { message: string }).message, /Bearer/)

    const carol = await t.join('Carol', 'model-c')
    t.clock.advance(31)
    const reply = await fetch(`${t.url}/api/clearing`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${carol.key}` },
      body: JSON.stringify({ action: 'contribute', room: 'connection', kind: 'conversation', content: 'no body key' }),
    })
    assert.equal(reply.status, 400)
    const body = (await reply.json()) as { error: { code: string; details?: Array<{ path: string }> } }
    assert.equal(body.error.code, 'invalid_request')
    assert.ok(JSON.stringify(body).includes('key'), 'the missing body key is named')
  })
})
