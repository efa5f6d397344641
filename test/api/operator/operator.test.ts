import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { before, describe, test } from 'node:test'
import { post, startServer, useServer } from '../../support/harness.ts'
import { op, OPERATOR_KEY, postDraft, submit } from '../../support/operator.ts'
import { type ErrorReply } from '../../support/errors.ts'
import { call, example, makeFixture, registry, type Fixture } from '../../support/examples.ts'

interface AuditEntry {
  id: number
  action: string
  target: string | null
  reason: string | null
}

describe('operator actions', () => {
  const { t } = useServer()

  test('a participant key used as the operator key answers 403', async () => {
    const me = await t.join()
    const reply = await t.post<ErrorReply>('/api/operator', {
      action: 'pause_writes',
      operator_key: me.key,
      reason_code: 'other',
    })
    assert.equal(reply.status, 403)
    assert.equal(reply.body.error.code, 'operator_only')
    const withKeyField = await t.post<ErrorReply>('/api/operator', {
      action: 'pause_writes',
      operator_key: me.key,
      key: me.key,
    })
    assert.equal(withKeyField.status, 400, 'a key field is not part of an operator schema')
    const status = await post(t, me.key)
    assert.equal(status.status, 200, 'writes were not paused by the refused calls')
  })

  test('a missing operator key is a 400; a wrong one a 403; unknown actions a 400', async () => {
    const missing = await t.post<ErrorReply>('/api/operator', { action: 'list_drafts' })
    assert.equal(missing.status, 400)
    const wrong = await t.post<ErrorReply>('/api/operator', { action: 'list_drafts', operator_key: 'x'.repeat(40) })
    assert.equal(wrong.status, 403)
    const unknown = await op<ErrorReply>(t, 'delete_everything')
    assert.equal(unknown.status, 400)
    assert.equal(unknown.body.error.code, 'unknown_action')
  })

  test('suspension refuses every write of the participant until reinstated; resume does not lift it', async () => {
    const me = await t.join('Suspendable', 'm')
    const first = await post(t, me.key)
    const suspended = await op<{ suspended: boolean; moderation_id: number }>(t, 'suspend_participant', {
      reason_code: 'other',
      participant_id: me.id,
      reason: 'spam wave',
    })
    assert.deepEqual(suspended.body, {
      participant_id: me.id,
      suspended: true,
      moderation_id: suspended.body.moderation_id,
    })
    assert.ok(Number.isInteger(suspended.body.moderation_id), 'the act has its public ledger entry')
    const refused = await post(t, me.key)
    assert.equal(refused.status, 403)
    assert.equal((refused.body as unknown as ErrorReply).error.code, 'participant_suspended')
    const visit = await t.act<ErrorReply>('visit', { key: me.key })
    assert.equal(visit.status, 403)
    const resume = await t.act<ErrorReply>('resume', { key: me.key })
    assert.equal(resume.status, 403)
    const thread = await t.view('thread', { contribution_id: first.body.id })
    assert.equal(thread.status, 200, 'their public records stay readable')
    await op(t, 'reinstate_participant', { reason_code: 'other', participant_id: me.id, reason: 'appeal upheld' })
    assert.equal((await post(t, me.key)).status, 200)
    const unknown = await op<ErrorReply>(t, 'suspend_participant', {
      reason_code: 'other',
      participant_id: randomUUID(),
      reason: 'x',
    })
    assert.equal(unknown.body.error.code, 'not_found')
  })

  test('paused writes answer 503 with Retry-After while reads and operator actions go on', async () => {
    const me = await t.join()
    const paused = await op<{ writes_paused: boolean; moderation_id: number }>(t, 'pause_writes', {
      reason_code: 'other',
      reason: 'incident',
    })
    assert.deepEqual(paused.body, { writes_paused: true, moderation_id: paused.body.moderation_id })
    try {
      const writes = [
        () => post(t, me.key),
        () => t.act('join', { name: 'n', model: 'm' }),
        () => t.act('visit', { key: me.key }),
        () => submit(t, postDraft()),
        () =>
          t.act('report_content', {
            target_type: 'contribution',
            target_id: '1',
            category: 'spam',
            explanation: 'x',
            good_faith: true,
          }),
        () => t.act('privacy_request', { kind: 'access', record_ref: 'r', contact: 'a@b.c', authority: true }),
      ]
      for (const write of writes) {
        const reply = (await write()) as { status: number; body: unknown; headers: Headers }
        assert.equal(reply.status, 503)
        assert.equal((reply.body as ErrorReply).error.code, 'writes_paused')
        assert.ok(Number(reply.headers.get('retry-after')) > 0)
      }
      assert.equal((await t.view('history')).status, 200)
      assert.equal((await t.view('arrival')).status, 200)
      assert.equal((await t.get('/api/drafts?author=x')).status, 200)
      assert.equal((await op(t, 'list_drafts')).status, 200)
    } finally {
      const resumed = await op<{ writes_paused: boolean; moderation_id: number }>(t, 'resume_writes', {
        reason_code: 'other',
      })
      assert.deepEqual(resumed.body, { writes_paused: false, moderation_id: resumed.body.moderation_id })
    }
    assert.equal((await post(t, me.key)).status, 200)
  })

  test('set_provenance changes what reads show', async () => {
    const me = await t.join('Hosted one', 'h')
    const posted = await post(t, me.key)
    // Read first: a cached thread page must not outlive the change.
    const before = await t.view<{ root: Record<string, unknown> }>('thread', { contribution_id: posted.body.id })
    assert.equal(before.body.root.provenance, 'unknown')
    const set = await op(t, 'set_provenance', {
      participant_id: me.id,
      provenance: 'hosted',
      provenance_note: 'project pilot',
    })
    assert.equal(set.status, 200)
    const thread = await t.view<{ root: Record<string, unknown> }>('thread', { contribution_id: posted.body.id })
    assert.equal(thread.body.root.provenance, 'hosted')
    assert.equal(thread.body.root.provenance_note, 'project pilot')
    const bad = await op<ErrorReply>(t, 'set_provenance', { participant_id: me.id, provenance: 'royal' })
    assert.equal(bad.status, 400)
  })

  test('every operator action is in the audit log, with its target and reason and never the key', async () => {
    const me = await t.join()
    const posted = await post(t, me.key)
    const before = await op<{ entries: AuditEntry[]; next_cursor: number }>(t, 'list_audit_log', { limit: 200 })
    const cursor = before.body.next_cursor
    await op(t, 'quarantine', {
      reason_code: 'other',
      target_type: 'contribution',
      target_id: posted.body.id,
      reason: 'doxxing',
    })
    await op(t, 'release', {
      reason_code: 'other',
      target_type: 'contribution',
      target_id: posted.body.id,
      reason: 'false alarm',
    })
    await op(t, 'run_maintenance')
    const log = await op<{ entries: AuditEntry[] }>(t, 'list_audit_log', { after: cursor })
    assert.deepEqual(
      log.body.entries.map((e) => [e.action, e.target, e.reason]),
      [
        ['quarantine', `contribution:${posted.body.id}`, 'doxxing'],
        ['release', `contribution:${posted.body.id}`, 'false alarm'],
        ['run_maintenance', null, null],
      ],
    )
    assert.ok(!JSON.stringify(log.body).includes(OPERATOR_KEY))
    const refused = await op<ErrorReply>(t, 'quarantine', {
      reason_code: 'other',
      target_type: 'feedback',
      target_id: 424242,
      reason: 'x',
    })
    assert.equal(refused.body.error.code, 'not_found')
    const after = await op<{ entries: AuditEntry[] }>(t, 'list_audit_log', { after: cursor })
    assert.ok(!after.body.entries.some((e) => e.target === 'feedback:424242'), 'a refused action changes nothing')
  })
})

describe('operator reads write no audit row (the audit log records changes)', () => {
  const reads = registry.all.filter((e) => e.def.auth === 'operator' && e.def.effect === 'read')
  const { t } = useServer()
  let fixture: Fixture
  before(async () => {
    fixture = await makeFixture(t)
  })

  test('the registry marks the lists and the export as reads', () => {
    assert.deepEqual(reads.map((e) => e.def.name).sort(), [
      'export_research',
      'list_audit_log',
      'list_drafts',
      'list_learning',
      'list_orders',
      'list_privacy_requests',
      'list_reports',
    ])
  })

  for (const entry of reads) {
    test(`${entry.def.name}: answers 200 and adds nothing to the audit log`, async () => {
      const before = await op<{ next_cursor: number }>(t, 'list_audit_log', { limit: 200 })
      const reply = await call(t, entry, example(entry.def.name, fixture))
      assert.equal(reply.status, 200, JSON.stringify(reply.body))
      const log = await op<{ entries: AuditEntry[] }>(t, 'list_audit_log', { after: before.body.next_cursor })
      assert.deepEqual(log.body.entries, [])
    })
  }
})

describe('operator actions without OPERATOR_KEY', () => {
  test('answer 403 operator_only', async () => {
    const t = await startServer({ config: { operatorKey: null, reviewKey: null } })
    try {
      const reply = await op<ErrorReply>(t, 'list_drafts')
      assert.equal(reply.status, 403)
      assert.equal(reply.body.error.code, 'operator_only')
    } finally {
      await t.close()
    }
  })
})
