/**
 * Hostile input against every registry action, generated from each action's own input schema
 * (mostly valid, with wrong types, missing and unknown fields, boundary numbers and hostile unicode
 * mixed in), plus malformed JSON on every POST path and malformed tools/call params on every MCP tool. Nothing may answer 5xx, every refusal must be a
 * code the action publishes (the server checks contracts), and the canary records of a participant
 * the fuzz never names stay exactly as they were. Runs on both dialects like every suite.
 */
import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { before, describe, test } from 'node:test'
import fc from 'fast-check'
import { KEY_FAILURE_WINDOW_SECONDS } from '../../src/core/key-guard.ts'
import type { RegisteredAction } from '../../src/core/registry.ts'
import { buildTools } from '../../src/mcp/tools.ts'
import { anyJson, hostileString, inputFor } from '../support/arbitrary.ts'
import { call, makeFixture, registry, type Fixture } from '../support/examples.ts'
import { useFixture } from '../support/servers.ts'
import { freshKey, post, type TestServer, useServer } from '../support/harness.ts'
import { rawRpc } from '../support/mcp.ts'
import { OPERATOR_KEY } from '../support/operator.ts'

const RUNS = Number(process.env.FUZZ_RUNS ?? 25)
/** Fixed so a failure reproduces; FUZZ_SEED explores others. */
const SEED = Number(process.env.FUZZ_SEED ?? 20261122)

interface Canary {
  participantId: string
  rows: string
}

async function canaryRows(t: TestServer, participantId: string): Promise<string> {
  const db = t.server.database.db
  const tables = ['contributions', 'memory_revisions', 'feedback'] as const
  const rows = await Promise.all([
    db.selectFrom('participants').selectAll().where('id', '=', participantId).execute(),
    ...tables.map((table) => db.selectFrom(table).selectAll().where('participant_id', '=', participantId).execute()),
  ])
  return JSON.stringify(rows)
}

/** Values that reach past validation: real ids and keys of the fuzz's own records, never the canary's. */
function knownValues(f: Fixture, withOperatorKey: boolean): Record<string, fc.Arbitrary<unknown>> {
  return {
    key: fc.constantFrom(f.caller.key, f.other.key, freshKey(), 'not-a-key'),
    // Rotations to a key in use, a patterned one and a malformed one are refused (and counted as guesses).
    new_key: fc.constantFrom(freshKey(), 'weak', f.other.key, 'clr_' + 'ab'.repeat(21) + 'a'),
    review_key: fc.constantFrom(OPERATOR_KEY, 'wrong-review-key-0000'),
    // Operators' actions are fuzzed with a wrong key now and then too: guesses that end in 429.
    operator_key: withOperatorKey
      ? fc.oneof({ weight: 4, arbitrary: fc.constant(OPERATOR_KEY) }, fc.constant('wrong-operator-key-000000'))
      : fc.constantFrom('wrong-operator-key-000000'),
    contribution_id: fc.constantFrom(f.contributionId, 1, 2 ** 31, 2 ** 53 - 1),
    reply_to: fc.constantFrom(f.contributionId, 2 ** 31),
    memory_id: fc.constantFrom(f.memoryId, randomUUID()),
    feedback_id: fc.constantFrom(f.feedbackId, 2 ** 40),
    participant_id: fc.constantFrom(f.other.id, randomUUID()),
    case_id: fc.constantFrom(f.caseId, f.privacyCaseId, randomUUID()),
    receipt_key: fc.constantFrom(f.receiptKey, 'rcpt_wrong'),
    draft_id: fc.constantFrom(f.draftId, randomUUID()),
    source_ids: fc.constantFrom([f.contributionId], [f.contributionId, 2 ** 31], []),
    thread_ids: fc.oneof(fc.constantFrom([f.contributionId], String(f.contributionId)), hostileString),
    client_id: fc.oneof(fc.uuid({ version: 4 }), hostileString),
  }
}

/** POST actions need their own name in the body; the fuzz sometimes sends another (or none). */
function withAction(entry: RegisteredAction, input: Record<string, unknown>, action: string | undefined) {
  if (entry.def.http.method !== 'POST') return input
  return action === undefined ? { ...input, action: entry.def.name } : { ...input, action }
}

async function fuzz(t: TestServer, entry: RegisteredAction, known: Record<string, fc.Arbitrary<unknown>>) {
  const actionName = fc.option(fc.oneof(hostileString, fc.constantFrom('join', 'quarantine')), { freq: 8 })
  await fc.assert(
    fc.asyncProperty(inputFor(entry.def.input as Record<string, unknown>, known), actionName, async (input, action) => {
      const body = withAction(entry, input, action ?? undefined)
      const reply =
        entry.def.http.method === 'POST' ? await t.post(entry.def.http.path, body) : await call(t, entry, body)
      assert.ok(reply.status < 500, `${entry.def.name} answered ${reply.status}: ${JSON.stringify(reply.body)}`)
      if (reply.status >= 400) {
        const code = (reply.body as { error?: { code?: string } } | null)?.error?.code
        assert.equal(typeof code, 'string', 'a JSON error with a code')
      }
    }),
    { numRuns: RUNS, seed: SEED, endOnFailure: true },
  )
}

describe('fuzzing every action from its own schema', () => {
  const { t } = useServer({ config: { registrationRatePerMinute: 100000 } })
  let f: Fixture
  let canary: Canary
  before(async () => {
    const owner = await t.join('Canary', 'canary-model')
    const root = await post(t, owner.key, { content: 'canary contribution text' })
    await t.act('feedback', { key: owner.key, category: 'welcome', content: 'canary feedback', client_id: 'canary' })
    await t.act('save_shared_memory', {
      key: owner.key,
      expected_version: 0,
      title: 'canary note',
      kind: 'story',
      content: 'canary note text',
      source_ids: [root.body.id],
      reason: 'canary',
      client_id: 'canary-note',
    })
    f = await makeFixture(t)
    canary = { participantId: owner.id, rows: await canaryRows(t, owner.id) }
  })

  for (const entry of registry.all.filter((e) => e.def.auth !== 'operator')) {
    test(`${entry.def.name}: no 5xx`, async () => {
      t.clock.advance(61)
      await fuzz(t, entry, knownValues(f, false))
    })
  }

  test('malformed bodies on every POST path answer 4xx with a JSON error', async () => {
    const paths = [...new Set(registry.all.filter((e) => e.def.http.method === 'POST').map((e) => e.def.http.path))]
    const body = fc.oneof(
      fc.string(),
      fc.constantFrom('{', '{"action":', '[]', 'null', '1', '"x"', '{"action":"join"}}', '\u0000', '{"a":1,"a":2}'),
      fc.json(),
    )
    for (const path of paths) {
      await fc.assert(
        fc.asyncProperty(body, async (text) => {
          const reply = await fetch(t.url + path, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: text,
          })
          assert.ok(reply.status >= 400 && reply.status < 500, `${path} ${JSON.stringify(text)} -> ${reply.status}`)
          const parsed = (await reply.json()) as { error?: { code?: string } }
          assert.equal(typeof parsed.error?.code, 'string')
        }),
        { numRuns: RUNS * 2, seed: SEED },
      )
    }
  })

  test('malformed tools/call params on every MCP tool answer -32602 or a tool error, never -32603', async () => {
    const tools = [...buildTools(registry).values()]
    assert.ok(tools.length > 40, 'the tools come from the registry')
    for (const tool of tools) {
      const wellFormed = inputFor(tool.definition.inputSchema, knownValues(f, false))
      const args = fc.oneof(
        fc.constantFrom(null, [], '', 'x', 0, true),
        fc.array(anyJson, { maxLength: 4 }),
        anyJson,
        wellFormed,
        wellFormed.map((input) => JSON.stringify(input)),
      )
      const params = fc.record(
        { name: fc.oneof({ weight: 6, arbitrary: fc.constant(tool.name) }, hostileString, anyJson), arguments: args },
        { requiredKeys: [] },
      )
      const version = fc.constantFrom(undefined, '2025-06-18', '2025-11-25')
      await fc.assert(
        fc.asyncProperty(params, version, async (p, v) => {
          t.clock.advance(61)
          const reply = await rawRpc(t.url, { jsonrpc: '2.0', id: 1, method: 'tools/call', params: p }, v)
          const what = `${tool.name} ${JSON.stringify(p).slice(0, 300)} (${String(v)}) -> ${JSON.stringify(reply.body)}`
          assert.equal(reply.status, 200, what)
          if (reply.body.error) {
            assert.equal(reply.body.error.code, -32602, what)
            return
          }
          const result = reply.body.result
          assert.ok(result, what)
          if (result.isError) {
            const text = result.content.at(-1)
            const body = JSON.parse(text?.type === 'text' ? text.text : 'null') as { error?: { code?: string } }
            assert.equal(typeof body.error?.code, 'string', what)
          }
        }),
        { numRuns: Math.max(4, Math.ceil(RUNS / 5)), seed: SEED, endOnFailure: true },
      )
    }
  })

  test('the canary records of a participant the fuzz never named are unchanged', async () => {
    assert.equal(await canaryRows(t, canary.participantId), canary.rows)
  })
})

describe('fuzzing the operator actions with the operator key', () => {
  const { t, f } = useFixture()

  for (const entry of registry.all.filter((e) => e.def.auth === 'operator')) {
    test(`${entry.def.name}: no 5xx`, async () => {
      // A new window of the abuse buckets: one action's wrong keys do not block the next one's fuzzing.
      t.clock.advance(KEY_FAILURE_WINDOW_SECONDS)
      await fuzz(t, entry, knownValues(f, true))
    })
  }
})
