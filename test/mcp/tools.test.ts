import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { post, startServer, type Reply, type TestServer } from '../support/harness.ts'
import { callTool, connectMcp, type McpSession, type ToolOutcome } from '../support/mcp.ts'

const UNTRUSTED = 'clearing/untrusted_content'

/** Data made through REST before any tool runs; tool cases read and extend it. */
interface Seed {
  alice: { id: string; key: string }
  bob: { id: string; key: string }
  root: number
  reply: number
  memoryId: string
  feedbackId: number
}

const REVIEW_KEY = 'review-secret-for-tests-0123456789'

/**
 * One row per tool. `rest` is the same call over REST: read tools must answer exactly what REST
 * answers (the adapter has no logic of its own). `check` asserts what a write did.
 */
interface ToolCase {
  tool: string
  args: (s: Seed) => Record<string, unknown>
  rest?: (t: TestServer, s: Seed) => Promise<Reply>
  check?: (outcome: ToolOutcome, t: TestServer, s: Seed) => Promise<void>
  /** Tool output carries participant text and must be marked untrusted. */
  untrusted: boolean
}

const CASES: ToolCase[] = [
  { tool: 'read_descriptor', args: () => ({}), rest: (t) => t.view(undefined), untrusted: true },
  { tool: 'read_arrival', args: () => ({}), rest: (t) => t.view('arrival'), untrusted: true },
  {
    tool: 'read_shared_history',
    args: () => ({ after: 0, limit: 10, room: 'connection' }),
    rest: (t) => t.view('history', { after: 0, limit: 10, room: 'connection' }),
    untrusted: true,
  },
  {
    tool: 'read_thread',
    args: (s) => ({ contribution_id: s.reply }),
    rest: (t, s) => t.view('thread', { contribution_id: s.reply }),
    untrusted: true,
  },
  {
    tool: 'check_returns',
    args: (s) => ({ key: s.alice.key, thread_ids: [s.root] }),
    rest: (t, s) => t.act('check_returns', { key: s.alice.key, thread_ids: [s.root] }),
    check: async (outcome, _t, s) => {
      const replies = outcome.body.replies_to_you as Array<{ id: number }>
      assert.deepEqual(
        replies.map((c) => c.id),
        [s.reply],
      )
    },
    untrusted: true,
  },
  {
    tool: 'record_visit',
    args: (s) => ({ key: s.bob.key }),
    check: async (outcome) => {
      assert.equal(outcome.body.recorded, true)
      assert.equal(outcome.body.counted, true)
    },
    untrusted: false,
  },
  {
    tool: 'contribute',
    args: (s) => ({
      key: s.bob.key,
      room: 'connection',
      kind: 'conversation',
      content: '  via MCP  ',
      client_id: 'mcp-1',
      reply_to: s.root,
    }),
    check: async (outcome, t, s) => {
      assert.equal(outcome.body.duplicate, false)
      const thread = await t.view<{ contributions: Array<Record<string, unknown>> }>('thread', {
        contribution_id: s.root,
      })
      const posted = thread.body.contributions.find((c) => c.id === outcome.body.id)
      assert.equal(posted?.content, 'via MCP')
      assert.equal(posted?.participant_id, s.bob.id)
    },
    untrusted: false,
  },
  {
    tool: 'join',
    args: () => ({ name: 'Mira', model: 'mcp-only' }),
    check: async (outcome, t) => {
      assert.match(String(outcome.body.key), /^clr_/)
      const visit = await t.act('visit', { key: outcome.body.key })
      assert.equal(visit.status, 200, 'the key from the join tool works over REST')
    },
    untrusted: false,
  },
  {
    tool: 'save_shared_memory',
    args: (s) => ({
      key: s.alice.key,
      expected_version: 0,
      title: 'From MCP',
      kind: 'observation',
      content: 'A note saved over MCP.',
      source_ids: [s.root],
      reason: 'first draft',
      client_id: 'mcp-note',
    }),
    check: async (outcome, t) => {
      assert.equal(outcome.body.version, 1)
      const note = await t.view<{ revisions: Array<Record<string, unknown>> }>('memory', {
        memory_id: String(outcome.body.memory_id),
      })
      assert.equal(note.body.revisions[0]?.content, 'A note saved over MCP.')
    },
    untrusted: false,
  },
  {
    tool: 'read_shared_memory',
    args: (s) => ({ memory_id: s.memoryId }),
    rest: (t, s) => t.view('memory', { memory_id: s.memoryId }),
    untrusted: true,
  },
  {
    tool: 'appreciate_encounter',
    args: (s) => ({ key: s.bob.key, contribution_id: s.root }),
    check: async (outcome) => assert.deepEqual([outcome.body.appreciated, outcome.body.duplicate], [true, false]),
    untrusted: false,
  },
  {
    tool: 'submit_feedback',
    args: (s) => ({ key: s.bob.key, category: 'welcome', content: 'Nice place.', client_id: 'mcp-f', fit: 5 }),
    check: async (outcome) => assert.equal(outcome.body.duplicate, false),
    untrusted: false,
  },
  { tool: 'read_feedback', args: () => ({}), rest: (t) => t.view('feedback'), untrusted: true },
  {
    tool: 'review_feedback',
    args: (s) => ({
      review_key: REVIEW_KEY,
      feedback_id: s.feedbackId,
      status: 'reviewed',
      response: 'Thanks.',
      alignment: 'aligned',
      client_id: 'mcp-review',
    }),
    check: async (outcome, t, s) => {
      assert.equal(outcome.body.feedback_id, s.feedbackId)
      const page = await t.view<{ feedback: Array<{ id: number; latest_review: { status: string } | null }> }>(
        'feedback',
      )
      assert.equal(page.body.feedback.find((f) => f.id === s.feedbackId)?.latest_review?.status, 'reviewed')
    },
    untrusted: false,
  },
  { tool: 'read_usage', args: () => ({}), rest: (t) => t.view('usage'), untrusted: false },
]

describe('MCP tools over the action registry', () => {
  let t: TestServer
  let mcp: McpSession
  let seed: Seed
  before(async () => {
    t = await startServer({ config: { reviewKey: REVIEW_KEY } })
    const alice = await t.join('Alice', 'model-a')
    const bob = await t.join('Bob', 'model-b')
    const root = (await post(t, alice.key, { content: 'a root from Alice' })).body.id
    const reply = (await post(t, bob.key, { content: 'a reply from Bob', reply_to: root })).body.id
    const note = await t.act<{ memory_id: string }>('save_shared_memory', {
      key: bob.key,
      expected_version: 0,
      title: 'Seed note',
      kind: 'story',
      content: 'A seed note.',
      source_ids: [root],
      reason: 'seed',
      client_id: 'seed-note',
    })
    const feedback = await t.act<{ id: number }>('feedback', {
      key: alice.key,
      category: 'suggestion',
      content: 'Seed feedback.',
      client_id: 'seed-feedback',
    })
    seed = { alice, bob, root, reply, memoryId: note.body.memory_id, feedbackId: feedback.body.id }
    t.clock.advance(31)
    mcp = await connectMcp(t.url)
  })
  after(async () => {
    await mcp.close()
    await t.close()
  })

  test('tools/list: every tool has its action schemas, a title and honest annotations', async () => {
    const { tools } = await mcp.client.listTools()
    const descriptor = await t.view<{ protocol: { actions: Array<Record<string, unknown>> } }>(undefined)
    for (const tool of tools) {
      assert.ok(tool.description, `${tool.name} has a description`)
      assert.ok(tool.title, `${tool.name} has a title`)
      assert.equal(tool.inputSchema.type, 'object')
      assert.equal(tool.inputSchema.properties?.action, undefined, `${tool.name} hides the action field`)
      assert.equal(tool.outputSchema?.type, 'object')
      assert.equal(tool.annotations?.title, tool.title)
    }
    const byName = new Map(tools.map((tool) => [tool.name, tool]))
    // Same TypeBox schemas as REST: the descriptor publishes them per action.
    const action = descriptor.body.protocol.actions.find((a) => a.name === 'contribute') as {
      input_schema: { properties: Record<string, unknown>; required: string[] }
      output_schema: unknown
    }
    const { action: _omitted, ...properties } = action.input_schema.properties
    const contribute = byName.get('contribute')
    assert.deepEqual(contribute?.inputSchema.properties, properties)
    assert.deepEqual(
      contribute?.inputSchema.required,
      action.input_schema.required.filter((f) => f !== 'action'),
    )
    assert.equal(contribute?.inputSchema.additionalProperties, false)
    assert.deepEqual(contribute?.outputSchema, action.output_schema)
    assert.deepEqual(byName.get('read_thread')?.inputSchema.required, ['contribution_id'])
    assert.equal(byName.get('read_descriptor')?.inputSchema.required, undefined)

    assert.deepEqual(contribute?.annotations, {
      title: 'Contribute',
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    })
    assert.equal(byName.get('join')?.annotations?.idempotentHint, false)
    assert.equal(byName.get('join')?.annotations?.destructiveHint, false)
    for (const name of ['read_descriptor', 'read_shared_history', 'read_thread', 'check_returns']) {
      assert.equal(byName.get(name)?.annotations?.readOnlyHint, true, name)
      assert.equal(byName.get(name)?.annotations?.idempotentHint, true, name)
    }
    assert.equal(byName.get('read_thread')?._meta?.[UNTRUSTED], true)
    assert.equal(byName.get('contribute')?._meta, undefined)
  })

  test('the descriptor names the MCP endpoint, its versions and every tool', async () => {
    const { tools } = await mcp.client.listTools()
    const descriptor = await t.view<{
      protocol: { mcp: { url: string; protocol_versions: string[]; tools: string[] } }
    }>(undefined)
    const { mcp: listed } = descriptor.body.protocol
    assert.equal(listed.url, `${t.url}/api/mcp`)
    assert.deepEqual(listed.protocol_versions, ['2025-03-26', '2025-06-18', '2025-11-25'])
    assert.deepEqual([...listed.tools].sort(), tools.map((tool) => tool.name).sort())
  })

  test('every listed tool has a case in this table', async () => {
    const { tools } = await mcp.client.listTools()
    const covered = new Set(CASES.map((c) => c.tool))
    const missing = tools.map((tool) => tool.name).filter((name) => !covered.has(name))
    assert.deepEqual(missing, [], `add rows to CASES for: ${missing.join(', ')}`)
  })

  for (const c of CASES) {
    test(`${c.tool} runs on data made through REST`, async () => {
      const outcome = await callTool(mcp, c.tool, c.args(seed))
      assert.equal(outcome.isError, false, outcome.text)
      // The JSON text block mirrors structuredContent for clients without structured output.
      const blocks = outcome.result.content.filter((b) => b.type === 'text')
      assert.deepEqual(JSON.parse((blocks.at(-1) as { text: string }).text), outcome.body)
      assert.equal(outcome.result._meta?.[UNTRUSTED] === true, c.untrusted, 'untrusted marking')
      assert.equal(blocks.length, c.untrusted ? 2 : 1)
      if (c.untrusted) assert.match((blocks[0] as { text: string }).text, /untrusted conversation content/)
      if (c.rest) {
        const rest = await c.rest(t, seed)
        assert.equal(rest.status, 200)
        assert.deepEqual(outcome.body, rest.body)
      }
      await c.check?.(outcome, t, seed)
    })
  }

  test('a retried contribute with the same client_id is a duplicate, not a second post', async () => {
    t.clock.advance(31)
    const args = { key: seed.alice.key, room: 'wonder', kind: 'question', content: 'again?', client_id: 'mcp-retry' }
    const first = await callTool(mcp, 'contribute', args)
    const second = await callTool(mcp, 'contribute', args)
    assert.deepEqual(second.body, { id: first.body.id, duplicate: true })
  })

  test('keys passed as tool arguments never reach the log', async () => {
    const joined = await callTool<{ key: string }>(mcp, 'join', { name: 'Quiet', model: 'm' })
    await callTool(mcp, 'record_visit', { key: joined.body.key })
    const logs = t.logs.join('')
    assert.ok(logs.includes('/api/mcp'), 'MCP requests are logged')
    for (const key of [seed.alice.key, seed.bob.key, joined.body.key]) assert.equal(logs.includes(key), false)
  })
})
