import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { registry } from '../../src/app.ts'
import { objectRoot } from '../../src/mcp/tools.ts'
import { example, makeFixture, type Fixture } from '../support/examples.ts'
import { freshKey, post, startServer, type Reply, type TestServer } from '../support/harness.ts'
import { useMcpServer } from '../support/servers.ts'
import { callTool, connectMcp, type McpSession, type ToolOutcome } from '../support/mcp.ts'
import { record } from '../support/learning.ts'
import { op } from '../support/operator.ts'
import { newAccount, sharedWalletFakes, signedChallenge, TIP_ADDRESS, wallet } from '../support/wallet.ts'

const UNTRUSTED = 'clearing/untrusted_content'

/** Data made through REST before any tool runs; tool cases read and extend it. */
interface Seed {
  alice: { id: string; key: string }
  bob: { id: string; key: string }
  root: number
  reply: number
  memoryId: string
  feedbackId: number
  /** Alice's approved, consented learning record (a public lesson), and a second one to withdraw. */
  lessonRecordId: string
  spareRecordId: string
  /** Participants whose keys the key tools rotate, pause and revoke. */
  carol: { id: string; key: string }
  dave: { id: string; key: string }
  report: { case_id: string; receipt_key: string }
  privacy: { case_id: string; receipt_key: string }
  /** A wallet with a live session (REST sign-in), and a signed challenge of another for wallet_sign_in. */
  walletAddress: string
  session: string
  signed: { message: string; signature: string }
  tipHash: string
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

const WORKSHOP_RECORD = { version: 1, activity: 'listen', claim: 'c', status: 'draft' }
const LEDGER = {
  version: 1,
  unit: 'posts',
  source: { kind: 'synthetic', description: 'made up' },
  entries: [
    { holder: 'a', amount: 2 },
    { holder: 'b', amount: 6 },
  ],
}

const CASES: ToolCase[] = [
  { tool: 'read_descriptor', args: () => ({}), rest: (t) => t.view(undefined), untrusted: true },
  {
    // Every challenge is new (a random nonce), so the answers are compared by shape, not equality.
    tool: 'proof_challenge',
    args: () => ({ for: 'join' }),
    check: async (outcome) => {
      assert.equal(outcome.body.for, 'join')
      assert.equal(outcome.body.required, false)
      assert.match(String(outcome.body.challenge), /^v1\.join\.0\.\d+\.[\w-]+\.[\w-]+$/)
    },
    untrusted: false,
  },
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
    tool: 'search',
    args: () => ({ q: 'seed', limit: 5 }),
    rest: (t) => t.get('/api/search?q=seed&limit=5'),
    check: async (outcome) => {
      const hits = outcome.body.hits as Array<{ type: string }>
      assert.ok(
        hits.some((h) => h.type === 'feedback'),
        'the seeded feedback is found',
      )
    },
    untrusted: true,
  },
  {
    tool: 'read_agent',
    args: (s) => ({ participant_id: s.alice.id }),
    rest: (t, s) => t.view('agent', { participant_id: s.alice.id }),
    untrusted: true,
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
  // Ids, times and reason codes only: no participant text, so no untrusted marking.
  { tool: 'read_moderation_ledger', args: () => ({}), rest: (t) => t.view('moderation'), untrusted: false },
  // The chain carries the public text beside each record; the key document carries none.
  { tool: 'read_chain', args: () => ({}), rest: (t) => t.view('chain'), untrusted: true },
  {
    tool: 'read_signing_key',
    args: () => ({}),
    rest: (t) => t.get('/.well-known/clearing-signing-key'),
    untrusted: false,
  },
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
  {
    tool: 'read_lessons',
    args: () => ({ after: 0 }),
    rest: (t) => t.get('/api/learning?after=0'),
    check: async (outcome, _t, s) => {
      const lessons = outcome.body.lessons as Array<{ record_id: string; lesson: string }>
      assert.deepEqual(
        lessons.map((l) => [l.record_id, l.lesson]),
        [[s.lessonRecordId, 'A seed lesson.']],
      )
    },
    untrusted: true,
  },
  { tool: 'read_policy', args: () => ({}), rest: (t) => t.view('policy'), untrusted: false },
  {
    tool: 'list_shared_memory',
    args: () => ({ after: 0 }),
    rest: (t) => t.view('memories', { after: 0 }),
    check: async (outcome, _t, s) => {
      const notes = outcome.body.notes as Array<{ memory_id: string }>
      assert.ok(notes.some((n) => n.memory_id === s.memoryId))
    },
    untrusted: true,
  },
  {
    tool: 'save_learning',
    args: (s) => learningFields(s.bob.key, s.root, { client_id: 'mcp-learning' }),
    check: async (outcome) => {
      assert.equal(outcome.body.version, 1)
      assert.equal(outcome.body.duplicate, false)
    },
    untrusted: false,
  },
  {
    tool: 'learning_consent',
    args: (s) => ({ key: s.bob.key, contribution_id: s.reply, purpose: 'research_training', granted: true }),
    check: async (outcome, _t, s) => {
      assert.deepEqual([outcome.body.contribution_id, outcome.body.granted], [s.reply, true])
    },
    untrusted: false,
  },
  {
    tool: 'my_learning',
    args: (s) => ({ key: s.alice.key }),
    rest: (t, s) => t.post('/api/learning', { action: 'my_learning', key: s.alice.key }),
    untrusted: true,
  },
  {
    tool: 'withdraw_learning',
    args: (s) => ({ key: s.alice.key, record_id: s.spareRecordId }),
    check: async (outcome, t, s) => {
      assert.equal(outcome.body.withdrawn, true)
      const mine = await t.post<{ records: Array<{ record_id: string }> }>('/api/learning', {
        action: 'my_learning',
        key: s.alice.key,
      })
      assert.deepEqual(
        mine.body.records.map((r) => r.record_id),
        [s.lessonRecordId],
      )
    },
    untrusted: false,
  },
  {
    tool: 'bookmark_history',
    args: (s) => ({ key: s.alice.key, contribution_cursor: s.root, memory_cursor: 0, carry_context: 'from MCP' }),
    check: async (outcome, t, s) => {
      assert.equal(outcome.body.carry_context, 'from MCP')
      const resumed = await t.act<{ bookmark: { contribution_cursor: number } }>('resume_history', { key: s.alice.key })
      assert.equal(resumed.body.bookmark.contribution_cursor, s.root)
    },
    untrusted: false,
  },
  {
    tool: 'workshop_audit',
    args: () => ({ record: WORKSHOP_RECORD }),
    rest: (t) => t.post('/api/workshop', { action: 'audit', record: WORKSHOP_RECORD }),
    untrusted: false,
  },
  {
    tool: 'workshop_hidden_world',
    args: () => ({ power: 3, hours: 10 }),
    rest: (t) => t.post('/api/workshop', { action: 'hidden_world', power: 3, hours: 10 }),
    untrusted: false,
  },
  {
    tool: 'workshop_governance_trial',
    args: () => ({ power: 2, resolution: 0.5 }),
    rest: (t) => t.post('/api/workshop', { action: 'governance_trial', power: 2, resolution: 0.5 }),
    untrusted: false,
  },
  {
    tool: 'analyze_distribution',
    args: () => ({ ledger: LEDGER }),
    rest: (t) => t.post('/api/distribution', { action: 'analyze', ledger: LEDGER }),
    untrusted: false,
  },
  { tool: 'read_learning_policy', args: () => ({}), rest: (t) => t.get('/api/learning?view=policy'), untrusted: false },
  { tool: 'read_workshop', args: () => ({}), rest: (t) => t.get('/api/workshop'), untrusted: false },
  { tool: 'read_distribution', args: () => ({}), rest: (t) => t.get('/api/distribution'), untrusted: false },
  { tool: 'read_progress', args: () => ({}), rest: (t) => t.get('/api/progress'), untrusted: true },
  { tool: 'read_invention', args: () => ({}), rest: (t) => t.get('/api/invention'), untrusted: false },
  { tool: 'read_practice', args: () => ({}), rest: (t) => t.get('/api/practice'), untrusted: false },
  { tool: 'read_wallet_config', args: () => ({}), rest: (t) => t.get('/api/wallet?view=config'), untrusted: false },
  { tool: 'read_services', args: () => ({}), rest: (t) => t.get('/api/services'), untrusted: false },
  {
    tool: 'wallet_challenge',
    args: (s) => ({ address: s.walletAddress }),
    check: async (outcome, _t, s) => assert.ok(String(outcome.body.message).includes(s.walletAddress)),
    untrusted: false,
  },
  {
    tool: 'wallet_sign_in',
    args: (s) => s.signed,
    check: async (outcome, t) => {
      const mine = await wallet(t, 'my_wallet', { session_token: outcome.body.session_token })
      assert.equal(mine.status, 200, 'the session from the tool works over REST')
    },
    untrusted: false,
  },
  {
    tool: 'my_wallet',
    args: (s) => ({ session_token: s.session }),
    rest: (t, s) => wallet(t, 'my_wallet', { session_token: s.session }),
    untrusted: false,
  },
  {
    tool: 'link_wallet',
    args: (s) => ({ key: s.bob.key, session_token: s.session }),
    check: async (outcome, t, s) => {
      assert.equal(outcome.body.linked, true)
      const mine = await wallet<{ linked_participants: Array<{ participant_id: string }> }>(t, 'my_wallet', {
        session_token: s.session,
      })
      assert.deepEqual(
        mine.body.linked_participants.map((l) => l.participant_id),
        [s.bob.id],
      )
    },
    untrusted: false,
  },
  {
    tool: 'unlink_wallet',
    args: (s) => ({ key: s.bob.key }),
    check: async (outcome, t, s) => {
      assert.equal(outcome.body.participant_id, s.bob.id)
      const mine = await wallet<{ linked_participants: unknown[] }>(t, 'my_wallet', { session_token: s.session })
      assert.deepEqual(mine.body.linked_participants, [], 'the link made by link_wallet is gone')
    },
    untrusted: false,
  },
  {
    tool: 'verify_tip',
    args: (s) => ({ tx_hash: s.tipHash, session_token: s.session }),
    check: async (outcome) => assert.equal((outcome.body.receipt as { value_wei: string }).value_wei, '5'),
    untrusted: false,
  },
  {
    tool: 'wallet_sign_out',
    args: (s) => ({ session_token: s.session }),
    check: async (_outcome, t, s) => {
      const mine = await wallet(t, 'my_wallet', { session_token: s.session })
      assert.equal(mine.status, 403, 'the session has ended')
    },
    untrusted: false,
  },
  {
    tool: 'resume_history',
    args: (s) => ({ key: s.alice.key }),
    rest: (t, s) => t.act('resume_history', { key: s.alice.key }),
    check: async (outcome, _t, s) => {
      const replies = outcome.body.replies_to_you as Array<{ id: number }>
      assert.ok(replies.some((c) => c.id === s.reply))
    },
    untrusted: true,
  },
  {
    tool: 'report_content',
    args: (s) => ({
      target_type: 'contribution',
      target_id: String(s.root),
      category: 'spam',
      explanation: 'Reported over MCP.',
      good_faith: true,
    }),
    check: async (outcome, t) => {
      const status = await t.act<{ status: string }>('report_status', {
        case_id: outcome.body.case_id,
        receipt_key: outcome.body.receipt_key,
      })
      assert.equal(status.body.status, 'received', 'the receipt from the tool works over REST')
    },
    untrusted: false,
  },
  {
    tool: 'report_status',
    args: (s) => ({ case_id: s.report.case_id, receipt_key: s.report.receipt_key }),
    rest: (t, s) => t.act('report_status', { case_id: s.report.case_id, receipt_key: s.report.receipt_key }),
    untrusted: false,
  },
  {
    tool: 'privacy_request',
    args: () => ({ kind: 'access', record_ref: 'my profile', contact: 'me@example.org', authority: true }),
    check: async (outcome) => assert.match(String(outcome.body.receipt_key), /^clrr_/),
    untrusted: false,
  },
  {
    tool: 'privacy_status',
    args: (s) => ({ case_id: s.privacy.case_id, receipt_key: s.privacy.receipt_key }),
    rest: (t, s) => t.act('privacy_status', { case_id: s.privacy.case_id, receipt_key: s.privacy.receipt_key }),
    untrusted: false,
  },
  {
    tool: 'rotate_key',
    args: (s) => ({ key: s.carol.key, new_key: freshKey() }),
    check: async (outcome, t, s) => {
      assert.equal(outcome.body.rotated, true)
      const old = await t.act<{ error: { code: string } }>('visit', { key: s.carol.key })
      assert.equal(old.body.error.code, 'invalid_key', 'the old key stopped working')
    },
    untrusted: false,
  },
  {
    tool: 'pause_participation',
    args: (s) => ({ key: s.dave.key }),
    check: async (outcome, t, s) => {
      assert.equal(outcome.body.status, 'paused')
      const refused = await t.act<{ error: { code: string } }>('visit', { key: s.dave.key })
      assert.equal(refused.body.error.code, 'participant_paused')
    },
    untrusted: false,
  },
  {
    tool: 'resume_participation',
    args: (s) => ({ key: s.dave.key }),
    check: async (outcome, t, s) => {
      assert.equal(outcome.body.status, 'active')
      assert.equal((await t.act('visit', { key: s.dave.key })).status, 200)
    },
    untrusted: false,
  },
  {
    tool: 'revoke_key',
    args: (s) => ({ key: s.dave.key }),
    check: async (outcome, t, s) => {
      assert.equal(outcome.body.revoked, true)
      const refused = await t.act<{ error: { code: string } }>('visit', { key: s.dave.key })
      assert.equal(refused.body.error.code, 'key_revoked')
    },
    untrusted: false,
  },
]

/** Alice's seed record (the lessons tool shows its text), through the one save_learning body builder. */
const learningFields = (key: string, source: number, fields: Record<string, unknown> = {}) =>
  record(key, [source], { lesson: 'A seed lesson.', client_id: 'seed-learning', ...fields })

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
    const lesson = await t.post<{ record_id: string }>('/api/learning', {
      action: 'save_learning',
      ...learningFields(alice.key, root),
    })
    const spare = await t.post<{ record_id: string }>('/api/learning', {
      action: 'save_learning',
      ...learningFields(alice.key, root, { client_id: 'seed-spare', memory_allowed: false }),
    })
    await t.post('/api/learning', {
      action: 'learning_consent',
      key: alice.key,
      contribution_id: root,
      purpose: 'memory',
      granted: true,
    })
    const approved = await op(t, 'approve_learning', { record_id: lesson.body.record_id, version: 1 })
    assert.equal(approved.status, 200, JSON.stringify(approved.body))
    const report = await t.act<{ case_id: string; receipt_key: string }>('report_content', {
      target_type: 'contribution',
      target_id: String(root),
      category: 'other',
      explanation: 'seed report',
      good_faith: true,
    })
    const privacy = await t.act<{ case_id: string; receipt_key: string }>('privacy_request', {
      kind: 'access',
      record_ref: 'seed',
      contact: 'seed@example.org',
      authority: true,
    })
    const account = newAccount()
    const signedIn = await wallet<{ session_token: string }>(t, 'sign_in', await signedChallenge(t, account))
    assert.equal(signedIn.status, 200, JSON.stringify(signedIn.body))
    const fakes = await sharedWalletFakes()
    seed = {
      walletAddress: account.address,
      session: signedIn.body.session_token,
      signed: await signedChallenge(t, newAccount()),
      tipHash: fakes.chain.addTx({ to: TIP_ADDRESS, value: 5n, confirmations: 3, from: account.address }),
      alice,
      bob,
      root,
      reply,
      memoryId: note.body.memory_id,
      feedbackId: feedback.body.id,
      lessonRecordId: lesson.body.record_id,
      spareRecordId: spare.body.record_id,
      carol: await t.join('Carol', 'model-c'),
      dave: await t.join('Dave', 'model-d'),
      report: report.body,
      privacy: privacy.body,
    }
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
    // The output's structure, without its prose (kept in the descriptor and /openapi.json).
    assert.deepEqual(contribute?.outputSchema, objectRoot(action.output_schema))
    assert.deepEqual(byName.get('read_thread')?.inputSchema.required, ['contribution_id'])
    assert.equal(byName.get('read_descriptor')?.inputSchema.required, undefined)

    assert.deepEqual(contribute?.annotations, {
      title: 'Contribute',
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    })
    for (const name of ['rotate_key', 'revoke_key']) {
      assert.equal(byName.get(name)?.annotations?.destructiveHint, true, `${name} is destructive`)
    }
    for (const name of ['pause_participation', 'resume_participation', 'bookmark_history']) {
      assert.equal(byName.get(name)?.annotations?.destructiveHint, false, name)
      assert.equal(byName.get(name)?.annotations?.idempotentHint, true, name)
    }
    assert.equal(byName.get('report_content')?.annotations?.idempotentHint, false, 'each report opens a case')
    assert.equal(byName.get('join')?.annotations?.idempotentHint, false)
    assert.equal(byName.get('join')?.annotations?.destructiveHint, false)
    for (const name of ['read_descriptor', 'read_shared_history', 'read_thread', 'check_returns']) {
      assert.equal(byName.get(name)?.annotations?.readOnlyHint, true, name)
      assert.equal(byName.get(name)?.annotations?.idempotentHint, true, name)
    }
    assert.equal(byName.get('read_thread')?._meta?.[UNTRUSTED], true)
    assert.equal(byName.get('contribute')?._meta?.[UNTRUSTED], undefined)
    assert.deepEqual(byName.get('contribute')?._meta?.['clearing/errors'], registry.get('contribute')?.errors)
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
    assert.deepEqual(second.body, { ...first.body, duplicate: true })
  })

  test('keys passed as tool arguments never reach the log', async () => {
    const joined = await callTool<{ key: string }>(mcp, 'join', { name: 'Quiet', model: 'm' })
    await callTool(mcp, 'record_visit', { key: joined.body.key })
    const logs = t.logs.join('')
    assert.ok(logs.includes('/api/mcp'), 'MCP requests are logged')
    for (const key of [seed.alice.key, seed.bob.key, joined.body.key]) assert.equal(logs.includes(key), false)
  })
})

/**
 * A tool without a row in CASES is exercised all the same, with its action's example input (the one
 * the registry matrices use): a new tool needs no row here, and a row adds checks, not coverage.
 */
describe("a tool without a row in CASES runs its action's example", () => {
  const rows = new Set(CASES.map((c) => c.tool))
  const tools = registry.all.flatMap((entry) => {
    const binding = entry.def.mcp
    return binding ? [{ entry, tool: binding.name ?? entry.def.name }] : []
  })
  const { t, mcp } = useMcpServer()

  test("the tools listed are the registry's tools", async () => {
    const { tools: listed } = await mcp.client.listTools()
    assert.deepEqual(listed.map((tool) => tool.name).sort(), tools.map((x) => x.tool).sort())
  })

  for (const { entry, tool } of tools.filter((x) => !rows.has(x.tool))) {
    test(`${tool} runs its example`, async () => {
      // A fixture of its own, as the example was written for: no other tool's call has changed it.
      const f: Fixture = await makeFixture(t)
      t.clock.advance(31)
      const { action: _action, ...args } = example(entry.def.name, f)
      const outcome = await callTool(mcp, tool, args)
      assert.equal(outcome.isError, false, outcome.text)
      const blocks = outcome.result.content.filter((b) => b.type === 'text')
      assert.deepEqual(JSON.parse((blocks.at(-1) as { text: string }).text), outcome.body)
      const listed = (await mcp.client.listTools()).tools.find((x) => x.name === tool)
      assert.equal(outcome.result._meta?.[UNTRUSTED] === true, listed?._meta?.[UNTRUSTED] === true, 'untrusted marking')
    })
  }
})
