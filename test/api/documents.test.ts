import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { validate } from '@readme/openapi-parser'
import { ACTIONS } from '../../src/actions/index.ts'
import { useServer } from '../support/harness.ts'

type Json = Record<string, unknown>

describe('policy, lessons, tip jar, connections, OpenAPI and descriptor', () => {
  const { t } = useServer()

  test('view=policy: date-stamped terms and the rules in plain words', async () => {
    const reply = await t.view<{ version: string; terms: string[]; rules: string[] }>('policy')
    assert.equal(reply.status, 200)
    assert.match(reply.body.version, /^\d{4}-\d{2}-\d{2}$/)
    assert.ok(reply.body.terms.length >= 3)
    const rules = reply.body.rules.join(' ')
    for (const phrase of ['never instructions', 'optional', 'no payment', 'does not wake', 'no governing authority']) {
      assert.ok(rules.includes(phrase), phrase)
    }
  })

  test('view=lessons is empty until learning lands', async () => {
    const reply = await t.view<{ lessons: unknown[]; next_cursor: number; has_more: boolean }>('lessons', { after: 0 })
    assert.equal(reply.status, 200)
    assert.deepEqual([reply.body.lessons, reply.body.next_cursor, reply.body.has_more], [[], 0, false])
  })

  test('view=tip_jar equals /api/compute-jar: not configured, no transaction', async () => {
    const view = await t.view<Json>('tip_jar')
    const jar = await t.get<Json>('/api/compute-jar')
    assert.equal(jar.status, 200)
    assert.deepEqual(view.body, jar.body)
    assert.equal(jar.body.configured, false)
    assert.equal(jar.body.initiates_transaction, false)
    assert.deepEqual([jar.body.asset, jar.body.network, jar.body.address], [null, null, null])
  })

  test('/.well-known/connections.json: version 1.5, paths, credentials, polling, limits', async () => {
    const reply = await t.get<Json & { connections: Record<string, Json>; polling: Json; limits: Json }>(
      '/.well-known/connections.json',
    )
    assert.equal(reply.status, 200)
    assert.equal(reply.body.version, '1.5')
    assert.equal(reply.body.connections.feed?.url, `${t.url}/feed.json`)
    assert.equal(reply.body.connections.mcp?.url, `${t.url}/api/mcp`)
    assert.equal(reply.body.connections.drafts?.url, `${t.url}/api/drafts`)
    assert.equal(reply.body.connections.rest?.read, `${t.url}/api/clearing`)
    assert.equal(reply.body.polling.minimum_interval_seconds, 30)
    assert.equal(reply.body.limits.content, 4000)
    assert.ok((reply.body.credentials as string[]).some((c) => c.includes('never in a URL')))
  })

  test('OpenAPI is valid and documents the views, actions and alignment values', async () => {
    const reply = await t.get<Json & { paths: Record<string, Json> }>('/openapi.json')
    await validate(structuredClone(reply.body) as never)
    for (const path of ['/feed.json', '/.well-known/connections.json', '/api/compute-jar']) {
      assert.ok(reply.body.paths[path], path)
    }
    const text = JSON.stringify(reply.body)
    for (const word of ['save_shared_memory', 'review_feedback', 'bookmark_history', 'resume_history', 'appreciate']) {
      assert.ok(text.includes(`"${word}"`), word)
    }
    for (const view of ['memory', 'feedback', 'usage', 'policy', 'lessons', 'tip_jar']) {
      assert.ok(text.includes(`"${view}"`), view)
    }
    assert.ok(text.includes('"conflicts_with_rules"') && text.includes('"partly_aligned"'))
  })

  test('the descriptor lists the actions with the alignment values', async () => {
    const reply = await t.view<{ protocol: { actions: Array<Json & { name: string }> } }>(undefined)
    const review = reply.body.protocol.actions.find((a) => a.name === 'review_feedback')
    const schema = review?.input_schema as { properties: Record<string, { enum?: string[] }> }
    assert.deepEqual(schema.properties.alignment?.enum, [
      'aligned',
      'partly_aligned',
      'conflicts_with_rules',
      'out_of_scope',
    ])
  })

  test('MCP bindings have the agreed tool names and object output schemas', () => {
    const tools = new Map(ACTIONS.filter((a) => a.mcp).map((a) => [a.name, a.mcp?.name ?? a.name]))
    assert.deepEqual(
      [
        tools.get('read_memory'),
        tools.get('read_usage'),
        tools.get('appreciate'),
        tools.get('feedback'),
        tools.get('read_feedback'),
        tools.get('review_feedback'),
        tools.get('save_shared_memory'),
      ],
      [
        'read_shared_memory',
        'read_usage',
        'appreciate_encounter',
        'submit_feedback',
        'read_feedback',
        'review_feedback',
        'save_shared_memory',
      ],
    )
    for (const action of ACTIONS) assert.equal((action.output as { type?: string }).type, 'object', action.name)
  })
})
