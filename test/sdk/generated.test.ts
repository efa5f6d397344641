/**
 * The SDK's generated files are current (regenerated in memory from the registry and compared), and
 * the operation table agrees with the registry: one method per action, an iterator per paged read
 * whose cursors the result schema really carries, secrets only ever in bodies, join never retried.
 */
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { describe, test } from 'node:test'
import { createClearingClient, OPERATIONS } from '../../clients/typescript/src/index.ts'
import type { Operation } from '../../clients/typescript/src/operation.ts'
import { registry } from '../../src/app.ts'
import { CREDENTIAL_FIELDS } from '../../src/services/secrets.ts'
import { camel } from '../../src/http/openapi-components.ts'
import { GENERATED_DIR, openApiDocument, sdkFiles } from '../../scripts/sdk/generate.ts'
import { fieldNames } from '../support/variants.ts'

type Schema = { $ref?: string; type?: string | string[]; properties?: Record<string, Schema> }

const table: Record<string, Operation> = OPERATIONS

describe('the SDK generated files', () => {
  test('are current: run `npm run sdk:generate` after changing an action or a schema', async () => {
    for (const [name, text] of Object.entries(await sdkFiles())) {
      const committed = readFileSync(new URL(name, GENERATED_DIR), 'utf8')
      assert.ok(committed === text, `clients/typescript/src/generated/${name} is stale: run npm run sdk:generate`)
    }
  })

  test('one method per registry action, under its OpenAPI operationId', () => {
    const client = createClearingClient({ baseUrl: 'http://127.0.0.1:9' })
    const names = registry.all.map((e) => camel(e.def.name))
    assert.deepEqual(Object.keys(table).sort(), [...names].sort())
    for (const name of names)
      assert.equal(typeof (client as unknown as Record<string, unknown>)[name], 'function', name)
    for (const reserved of ['pages', 'raw', 'withKey']) assert.ok(!names.includes(reserved), `${reserved} is taken`)
  })

  test('every paged read of the registry has an iterator that follows each of its cursors', () => {
    const client = createClearingClient({ baseUrl: 'http://127.0.0.1:9' })
    const paged = registry.all.filter((e) => e.def.paging)
    assert.ok(paged.length > 10)
    for (const { def } of paged) {
      const name = camel(def.name)
      assert.equal(typeof (client.pages as Record<string, unknown>)[name], 'function', name)
      assert.deepEqual(
        table[name]?.paging,
        def.paging?.map(({ cursor, next, hasMore }) => ({ cursor, next, hasMore })),
      )
    }
    const unpaged = registry.all.filter((e) => !e.def.paging).map((e) => camel(e.def.name))
    for (const name of unpaged) assert.equal((client.pages as Record<string, unknown>)[name], undefined, name)
  })

  test('each cursor the iterator reads is in the result schema: next an integer, has_more a boolean', async () => {
    const doc = (await openApiDocument()) as unknown as {
      paths: Record<
        string,
        Record<string, { responses: Record<string, { content: Record<string, { schema: Schema }> }> }>
      >
      components: { schemas: Record<string, Schema> }
    }
    const resolve = (schema: Schema | undefined): Schema | undefined =>
      schema?.$ref ? resolve(doc.components.schemas[schema.$ref.replace('#/components/schemas/', '')]) : schema
    const typeAt = (schema: Schema | undefined, path: string) =>
      path.split('.').reduce((s, key) => resolve(resolve(s)?.properties?.[key]), resolve(schema))?.type
    for (const [name, operation] of Object.entries(table)) {
      for (const cursor of operation.paging ?? []) {
        const content = doc.paths[operation.path]?.[operation.method]?.responses['200']?.content ?? {}
        const [result] = Object.values(content).map((c) => c.schema)
        assert.equal(typeAt(result, cursor.next), 'integer', `${name}: ${cursor.next}`)
        assert.equal(typeAt(result, cursor.hasMore), 'boolean', `${name}: ${cursor.hasMore}`)
      }
    }
  })

  test('secrets only ever go in bodies: every action taking one is a POST, and the key goes where it is taken', () => {
    for (const { def } of registry.all) {
      const name = camel(def.name)
      const secrets = fieldNames(def.input).filter((f) => (CREDENTIAL_FIELDS as readonly string[]).includes(f))
      if (secrets.length) assert.equal(table[name]?.method, 'post', `${name} takes ${secrets.join(', ')}`)
      assert.equal(table[name]?.key, fieldNames(def.input).includes('key'), name)
    }
  })

  test('join is never retried; reads and client_id writes are', () => {
    assert.equal(table.join?.idempotent, false)
    for (const { def } of registry.all) {
      const row = table[camel(def.name)]
      if (def.effect === 'read' || fieldNames(def.input).includes('client_id')) assert.equal(row?.idempotent, true)
      assert.equal(row?.clientId, fieldNames(def.input).includes('client_id'))
    }
  })
})
