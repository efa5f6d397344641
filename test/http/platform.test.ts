import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { compileErrors, validate } from '@readme/openapi-parser'
import { registry } from '../../src/app.ts'
import { post, startServer, type TestServer } from '../support/harness.ts'

type ErrorReply = { error: { code: string; message: string } }
type OpenApi = {
  openapi: string
  info: { version: string }
  paths: Record<
    string,
    Record<
      string,
      {
        requestBody?: {
          content: Record<string, { schema: { oneOf?: Array<{ properties: { action: { const: string } } }> } }>
        }
        parameters?: Array<{ name: string; schema: { anyOf?: Array<{ const: string }> } }>
      }
    >
  >
}

describe('platform', () => {
  let t: TestServer
  before(async () => {
    t = await startServer()
  })
  after(() => t.close())

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

    for (const { def } of registry.all) {
      const operation = reply.body.paths[def.http.path]?.[def.http.method.toLowerCase()]
      assert.ok(operation, `${def.name}: ${def.http.method} ${def.http.path} is documented`)
      if (def.http.method === 'POST') {
        const variants = operation.requestBody?.content['application/json']?.schema.oneOf ?? []
        assert.ok(
          variants.some((v) => v.properties.action.const === def.name),
          `${def.name} is a documented body variant`,
        )
      } else if (def.http.view) {
        const wanted = def.http.view
        const view = operation.parameters?.find((p) => p.name === 'view')
        assert.ok(
          view?.schema.anyOf?.some((v) => v.const === wanted),
          `view=${wanted} is documented`,
        )
      }
    }
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
  })

  test('no key ever appears in a public read or in the log output', async () => {
    const me = await t.join('Secretive', 'm')
    const newKey = 'rotated-key-0123456789-abcdefghijklmnopqrstuvwxyz'
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
