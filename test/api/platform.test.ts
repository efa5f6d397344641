import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import SwaggerParser from '@apidevtools/swagger-parser'
import { compileErrors, validate } from '@readme/openapi-parser'
import { registry } from '../../src/app.ts'
import { camel, pascal } from '../../src/http/openapi-components.ts'
import { freshKey, post, useServer } from '../support/harness.ts'
import { type ErrorReply } from '../support/errors.ts'

type Schema = { $ref?: string; oneOf?: Schema[]; allOf?: Schema[]; enum?: string[] }
type Operation = {
  operationId?: string
  tags?: string[]
  requestBody?: { content: Record<string, { schema: Schema }> }
  parameters?: Array<{ name: string; required?: boolean; schema: Schema }>
  responses: Record<string, { content?: Record<string, { schema: Schema }> }>
}
type OpenApi = {
  openapi: string
  info: { version: string }
  paths: Record<string, Record<string, Operation>>
  components: { schemas: Record<string, Schema> }
}

describe('platform', () => {
  const { t } = useServer()

  test('healthz answers ok once the database is reachable', async () => {
    const reply = await t.get('/healthz')
    assert.equal(reply.status, 200)
    assert.deepEqual(reply.body, { status: 'ok' })
  })

  test('/openapi.json is a valid OpenAPI 3.1.0 document, version 1.2.0, covering every registry action', async () => {
    const reply = await t.get<OpenApi>('/openapi.json')
    assert.equal(reply.status, 200)
    assert.equal(reply.body.openapi, '3.1.0')
    assert.equal(reply.body.info.version, '1.2.0')
    const result = await validate(structuredClone(reply.body) as never)
    assert.equal(result.valid, true, result.valid ? '' : compileErrors(result))
    // A second, independent validator.
    await SwaggerParser.validate(structuredClone(reply.body) as never)

    for (const { def } of registry.all) {
      const operation = reply.body.paths[def.http.path]?.[def.http.method.toLowerCase()]
      assert.ok(operation, `${def.name}: ${def.http.method} ${def.http.path} is documented`)
      if (def.http.method === 'POST') {
        const body = operation.requestBody?.content['application/json']?.schema
        const refs = (body?.oneOf ?? [body]).map((v) => v?.allOf?.[0]?.$ref ?? v?.$ref)
        assert.ok(refs.includes(`#/components/schemas/${pascal(def.name)}Input`), `${def.name} is a documented body`)
      } else if (def.http.view) {
        const view = operation.parameters?.find((p) => p.name === 'view')
        assert.ok(view?.schema.enum?.includes(def.http.view), `view=${def.http.view} is documented`)
        // Optional where the path without a view reads something (the descriptor), else required.
        const bare = registry.all.some(
          (e) => e.def.http.path === def.http.path && e.def.http.method === 'GET' && !e.def.http.view,
        )
        assert.equal(view?.required, !bare, `${def.http.path}: view is required exactly where nothing reads without it`)
      }
    }
  })

  test('/openapi.json: one operation per action with its own named input and result, operationIds and tags', async () => {
    const doc = (await t.get<OpenApi>('/openapi.json')).body
    const operations = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.entries(item).map(([method, op]) => ({ path, method, op })),
    )
    const ids = operations.map((o) => o.op.operationId)
    assert.equal(
      ids.every((id) => typeof id === 'string' && /^[a-z][A-Za-z]+$/.test(id)),
      true,
      ids.join(' '),
    )
    assert.equal(new Set(ids).size, ids.length, 'operationIds are unique')
    assert.equal(
      operations.every((o) => (o.op.tags ?? []).length === 1),
      true,
      'every operation has a tag',
    )
    const schemas = doc.components.schemas
    for (const name of ['Error', 'Contribution', 'MemoryRevision', 'FeedItem', 'PostDraft', 'ActionDraft']) {
      assert.ok(schemas[name], `component ${name}`)
    }
    for (const { def } of registry.all) {
      const op = operations.find((o) => o.op.operationId === camel(def.name))
      assert.ok(op, `${def.name} has an operation of its own`)
      assert.equal(op.method, def.http.method.toLowerCase())
      const media = def.http.method === 'GET' && def.http.contentType ? def.http.contentType : 'application/json'
      const result = op.op.responses['200']?.content?.[media]?.schema
      assert.deepEqual(result, { $ref: `#/components/schemas/${pascal(def.name)}Result` }, `${def.name} result`)
      assert.ok(schemas[`${pascal(def.name)}Input`] && schemas[`${pascal(def.name)}Result`], def.name)
      if (def.http.method === 'POST') {
        assert.deepEqual(op.op.requestBody?.content['application/json']?.schema, {
          $ref: `#/components/schemas/${pascal(def.name)}Input`,
        })
      } else {
        // A view is the operation's own path segment, or a required parameter where the path serves no other read.
        const required = [...((def.input as { required?: string[] }).required ?? []), 'view']
        for (const p of op.op.parameters ?? [])
          assert.equal(p.required, required.includes(p.name), `${def.name} ${p.name}`)
      }
    }
    assert.ok(doc.paths['/feed.json']?.get?.responses['200']?.content?.['application/feed+json'], 'feed media type')
    // The keyless draft body is the two closed shapes, so generated clients type it fully.
    assert.deepEqual(schemas.SubmitDraftInput?.oneOf, [
      { $ref: '#/components/schemas/ActionDraft' },
      { $ref: '#/components/schemas/PostDraft' },
    ])
  })

  test("an action's own path runs the same action as the dispatching path", async () => {
    const me = await t.join('Alias', 'm')
    const own = await t.post<{ id: number }>('/api/clearing/contribute', {
      key: me.key,
      room: 'wonder',
      kind: 'question',
      content: 'via the alias',
      client_id: 'alias-1',
    })
    assert.equal(own.status, 200)
    const again = await t.act<{ id: number; duplicate: boolean }>('contribute', {
      key: me.key,
      room: 'wonder',
      kind: 'question',
      content: 'via the alias',
      client_id: 'alias-1',
    })
    assert.deepEqual(again.body, { ...own.body, duplicate: true }, 'one action, one idempotency record')
    const thread = await t.get(`/api/clearing/thread?contribution_id=${own.body.id}`)
    assert.deepEqual(thread.body, (await t.view('thread', { contribution_id: own.body.id })).body)
    const other = await t.post<ErrorReply>('/api/clearing/contribute', { action: 'visit', key: me.key })
    assert.equal(other.status, 400, 'a body naming another action is refused, not rerouted')
    assert.equal(other.body.error.code, 'invalid_request')
    const missing = await t.get<ErrorReply>('/api/clearing/thread')
    assert.equal(missing.status, 400)
    assert.equal((await t.post<ErrorReply>('/api/clearing/visit', [1])).body.error.code, 'invalid_request')
  })

  test('registry: names are unique, and every action is in the descriptor and served over REST', async () => {
    const names = registry.all.map((a) => a.def.name)
    assert.equal(new Set(names).size, names.length)
    const descriptor = await t.view<{ protocol: { actions: Array<{ name: string }> } }>(undefined)
    assert.deepEqual(
      descriptor.body.protocol.actions.map((a) => a.name),
      names,
    )
    for (const { def } of registry.all) {
      assert.ok(def.summary.length > 10, `${def.name} has a summary for agents`)
      if (def.http.method !== 'POST') continue
      const reply = await t.post<ErrorReply>(def.http.path, { action: def.name, definitely_unknown_field: 1 })
      assert.equal(reply.status === 400 || reply.status === 403, true, `${def.name} is dispatched: ${reply.status}`)
      assert.notEqual(reply.body.error.code, 'unknown_action', def.name)
    }
  })

  test('malformed requests get clear JSON errors with the right status', async () => {
    const cases: Array<[string, () => Promise<{ status: number; body: ErrorReply }>, number, string]> = [
      ['unknown action', () => t.act('dance'), 400, 'unknown_action'],
      ['missing action', () => t.post('/api/clearing', { name: 'x' }), 400, 'invalid_request'],
      ['array body', () => t.post('/api/clearing', [1, 2]), 400, 'invalid_request'],
      ['invalid JSON', () => t.post('/api/clearing', '{"action": "join",'), 400, 'invalid_request'],
      ['body over 64 KiB', () => t.act('join', { name: 'x', model: 'y'.repeat(70_000) }), 413, 'payload_too_large'],
      ['unknown route', () => t.get('/api/nothing-here'), 404, 'route_not_found'],
    ]
    for (const [label, send, status, code] of cases) {
      const reply = await send()
      assert.equal(reply.status, status, label)
      assert.equal(reply.body.error.code, code, label)
      assert.equal(typeof reply.body.error.message, 'string', label)
    }
    const text = await fetch(`${t.url}/api/clearing`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: 'hi',
    })
    assert.equal(text.status, 400)
    assert.equal(((await text.json()) as ErrorReply).error.code, 'invalid_request')
  })

  test('security headers, request ids, and open CORS for reads and writes', async () => {
    const reply = await fetch(`${t.url}/api/clearing?view=arrival`, {
      headers: { origin: 'https://somewhere.example' },
    })
    assert.equal(reply.headers.get('x-content-type-options'), 'nosniff')
    assert.match(reply.headers.get('content-security-policy') ?? '', /default-src 'none'/)
    assert.equal(reply.headers.get('access-control-allow-origin'), '*')
    assert.match(reply.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/)
    const preflight = await fetch(`${t.url}/api/clearing`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://somewhere.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      },
    })
    assert.ok(preflight.status === 204 || preflight.status === 200)
    assert.equal(preflight.headers.get('access-control-allow-origin'), '*')
    assert.match(preflight.headers.get('access-control-allow-methods') ?? '', /POST/)
    // A browser x402 client sends its payment and reads the requirement and the receipt.
    const pay = await fetch(`${t.url}/api/services`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://somewhere.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type,payment-signature',
      },
    })
    assert.match(pay.headers.get('access-control-allow-headers') ?? '', /PAYMENT-SIGNATURE/i)
    const exposed = reply.headers.get('access-control-expose-headers') ?? ''
    for (const header of ['PAYMENT-REQUIRED', 'PAYMENT-RESPONSE', 'Retry-After'])
      assert.match(exposed, new RegExp(header, 'i'))
  })

  test('every kind of answer carries the CORS headers and a request id, each once', async () => {
    const origin = { origin: 'https://somewhere.example' }
    const answers = {
      'a read': fetch(`${t.url}/api/clearing?view=arrival`, { headers: origin }),
      'a refused write': fetch(`${t.url}/api/clearing`, {
        method: 'POST',
        headers: { ...origin, 'content-type': 'application/json' },
        body: JSON.stringify({
          action: 'contribute',
          key: freshKey(),
          room: 'support',
          kind: 'question',
          content: 'refused',
          client_id: 'c1',
        }),
      }),
      'a malformed body': fetch(`${t.url}/api/clearing`, {
        method: 'POST',
        headers: { ...origin, 'content-type': 'application/json' },
        body: '{',
      }),
      'an unknown path': fetch(`${t.url}/api/nowhere`, { headers: origin }),
      'a web page': fetch(`${t.url}/`, { headers: origin }),
      'the OpenAPI document': fetch(`${t.url}/openapi.json`, { headers: origin }),
      // A browser's MCP call is refused (DNS rebinding protection); a script's is answered.
      'an MCP call from a page': fetch(`${t.url}/api/mcp`, {
        method: 'POST',
        headers: { ...origin, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
      }),
      'an MCP call': fetch(`${t.url}/api/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
      }),
      'a preflight': fetch(`${t.url}/api/clearing`, {
        method: 'OPTIONS',
        headers: { ...origin, 'access-control-request-method': 'POST' },
      }),
    }
    const statuses: Record<string, number> = {}
    for (const [what, answer] of Object.entries(answers)) {
      const reply = await answer
      await reply.arrayBuffer()
      statuses[what] = reply.status
      assert.equal(reply.headers.get('access-control-allow-origin'), '*', what)
      assert.equal(
        reply.headers.get('access-control-expose-headers'),
        'Retry-After, RateLimit, RateLimit-Policy, X-Request-Id, ETag, PAYMENT-REQUIRED, PAYMENT-RESPONSE',
        what,
      )
      assert.match(reply.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/, what)
      assert.equal(reply.headers.get('x-content-type-options'), 'nosniff', what)
    }
    // The answers are the kinds they are named for.
    assert.deepEqual(statuses, {
      'a read': 200,
      'a refused write': 403,
      'a malformed body': 400,
      'an unknown path': 404,
      'a web page': 200,
      'the OpenAPI document': 200,
      'an MCP call from a page': 403,
      'an MCP call': 200,
      'a preflight': 204,
    })
  })

  test('the descriptor lists every path the actions are served at', async () => {
    const descriptor = await t.view<{ protocol: { endpoints: Record<string, string> } }>(undefined)
    const urls = Object.values(descriptor.body.protocol.endpoints)
    for (const path of new Set(registry.all.map((e) => e.def.http.path))) {
      assert.ok(urls.includes(`${t.url}${path}`), `${path} is an endpoint`)
    }
    assert.equal(descriptor.body.protocol.endpoints.wallet, `${t.url}/api/wallet`)
    assert.equal(descriptor.body.protocol.endpoints.mcp, `${t.url}/api/mcp`)
    assert.equal(descriptor.body.protocol.endpoints.openapi, `${t.url}/openapi.json`)
  })

  test('no key ever appears in a public read or in the log output', async () => {
    const me = await t.join('Secretive', 'm')
    const newKey = freshKey()
    await post(t, me.key, { content: 'hello' })
    await t.act('contribute', { key: me.key, room: 'nowhere', kind: 'x', content: 'bad', client_id: 'bad' })
    await t.act('visit', { key: me.key })
    await t.act('rotate_key', { key: me.key, new_key: newKey })
    await t.act('visit', { key: me.key })
    await t.post('/api/clearing', `{"action":"visit","key":"${newKey}",`)
    const reads = await Promise.all([
      t.view(undefined),
      t.view('arrival'),
      t.view('history'),
      t.view('returns', { thread_ids: '1' }),
      t.get('/openapi.json'),
    ])
    for (const read of reads) {
      const text = JSON.stringify(read.body)
      assert.equal(text.includes(me.key), false)
      assert.equal(text.includes(newKey), false)
    }
    const logs = t.logs.join('')
    assert.ok(logs.length > 0, 'the server logged requests')
    assert.equal(logs.includes(me.key), false, 'the original key is not logged')
    assert.equal(logs.includes(newKey), false, 'the new key is not logged')
    assert.equal(logs.includes('127.0.0.1"'), false, 'no client address is logged')
    assert.match(logs, /"reqId":"[0-9a-f-]{36}"/, 'each request line carries its request id')
  })
})
