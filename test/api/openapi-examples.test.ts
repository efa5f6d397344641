import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormatsModule from 'ajv-formats'
import { registry } from '../../src/app.ts'
import { camel } from '../../src/http/openapi-components.ts'
import { mainExample } from '../../src/http/openapi-examples.ts'
import { startServer, type TestServer } from '../support/harness.ts'

type Json = Record<string, unknown>
type Parameter = { name: string; in: string; required?: boolean; schema: Json; example?: unknown }
type Operation = {
  operationId?: string
  requestBody?: { content: Record<string, { schema: Json; example?: Json }> }
  parameters?: Parameter[]
}
type OpenApi = { paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, Json> } }

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020
const COMPONENT = '#/components/schemas/'

/** The document's schemas with their component references made Ajv keys. */
function local(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(local)
  if (typeof schema !== 'object' || schema === null) return schema
  const copy: Json = {}
  for (const [key, value] of Object.entries(schema)) {
    copy[key] = key === '$ref' && typeof value === 'string' ? value.replace(COMPONENT, '') : local(value)
  }
  return copy
}

/** A query parameter's example as the server reads it: every value arrives as text. */
const asSent = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value))

/**
 * Every operation /openapi.json documents for a registry action carries the action's main example
 * (ActionDef.examples, with stand-in references): the request body's example of a POST, the parameters'
 * examples of a GET. Each validates against the operation's own input schema as the document states
 * it, and against the registry's validator the server runs.
 */
describe('OpenAPI request examples', () => {
  let t: TestServer
  let doc: OpenApi
  let ajv: Ajv2020
  before(async () => {
    t = await startServer()
    doc = (await t.get<OpenApi>('/openapi.json')).body
    ajv = addFormats(new Ajv2020({ strict: false, allErrors: true }))
    for (const [name, schema] of Object.entries(doc.components.schemas)) {
      ajv.addSchema(local({ ...schema, $id: undefined }) as Json, name)
    }
  })
  after(() => t.close())

  const operations = (): Array<[string, string, Operation]> =>
    Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops).map(([method, op]): [string, string, Operation] => [path, method, op]),
    )

  /** The registry entry an operation serves: its own action's, or the first of a dispatching path. */
  function entryOf(path: string, method: string, op: Operation) {
    const own = registry.all.find(({ def }) => camel(def.name) === op.operationId)
    return own ?? registry.at(method.toUpperCase() as 'GET' | 'POST', path)[0]
  }

  test('every POST operation of an action has a request body example valid against its schema', () => {
    let checked = 0
    for (const [path, method, op] of operations()) {
      const entry = entryOf(path, method, op)
      if (method !== 'post' || !entry) continue
      const media = op.requestBody?.content['application/json']
      assert.ok(media?.example, `${method} ${path} carries no request example`)
      if (camel(entry.def.name) === op.operationId) assert.deepEqual(media.example, mainExample(entry.def), path)
      const validate = ajv.compile(local(media.schema) as Json)
      assert.ok(validate(media.example), `${path}: ${JSON.stringify(validate.errors)}`)
      const target = registry.get(String(media.example.action))
      assert.ok(target, `${path}: the example names an action`)
      assert.doesNotThrow(() => target.validateBody(media.example), path)
      checked++
    }
    assert.ok(checked >= registry.all.filter(({ def }) => def.http.method === 'POST').length, `${checked} operations`)
  })

  test('every GET operation of an action carries its example in its parameters, valid against them', () => {
    let checked = 0
    for (const [path, method, op] of operations()) {
      const entry = entryOf(path, method, op)
      if (method !== 'get' || !entry) continue
      const params = (op.parameters ?? []).filter((p) => p.in === 'query')
      const example = Object.fromEntries(params.flatMap((p) => (p.example === undefined ? [] : [[p.name, p.example]])))
      for (const p of params) if (p.required) assert.ok(p.name in example, `${path}: ${p.name} has no example`)
      const view = typeof example.view === 'string' ? example.view : undefined
      const served = view ? registry.all.find(({ def }) => def.http.method === 'GET' && def.http.view === view) : entry
      assert.ok(served, `${path}: the example's view is served`)
      const { view: _view, ...input } = example
      const expected = Object.entries(mainExample(served.def)).map(([k, v]) => [k, Array.isArray(v) ? v.join(',') : v])
      assert.deepEqual(input, Object.fromEntries(expected), `${path}: the parameters carry the main example`)
      const schema = {
        type: 'object',
        properties: Object.fromEntries(params.map((p) => [p.name, local(p.schema)])),
        required: params.filter((p) => p.required).map((p) => p.name),
      }
      const validate = ajv.compile(schema)
      assert.ok(validate(example), `${path}: ${JSON.stringify(validate.errors)}`)
      const query = Object.fromEntries(Object.entries(input).map(([k, v]) => [k, asSent(v)]))
      assert.doesNotThrow(() => served.validateQuery(query), path)
      checked++
    }
    assert.ok(checked >= registry.all.filter(({ def }) => def.http.method === 'GET').length, `${checked} operations`)
  })

  test('the stand-in references are plainly placeholders: no example carries a working secret', () => {
    const text = JSON.stringify(doc.paths)
    assert.match(text, /EXAMPLExPLACEHOLDER/)
    assert.doesNotMatch(text, /operator-secret-for-tests/)
  })
})
