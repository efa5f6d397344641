import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { createServer as createNetServer, type AddressInfo, type Socket } from 'node:net'
import { describe, test } from 'node:test'
import { listAlerts } from '../../../src/store/operator/read.ts'
import { post, startServer, useServer } from '../../support/harness.ts'
import { op } from '../../support/operator.ts'
import { type ErrorReply } from '../../support/errors.ts'

interface Receipt {
  case_id: string
  receipt_key: string
}
interface Status {
  case_id: string
  status: string
  decision: string | null
  decision_note: string | null
}
interface OperatorCase {
  case_id: string
  text: string | null
  contact: string | null
  status: string
}

/** Only the two fields a status read takes (the intake reply also has a note). */
const receipt = (r: Receipt) => ({ case_id: r.case_id, receipt_key: r.receipt_key })

const report = (fields: Record<string, unknown> = {}) => ({
  target_type: 'contribution',
  target_id: '1',
  category: 'harassment',
  explanation: 'report-canary-explanation',
  contact: 'reporter@example.org',
  good_faith: true,
  ...fields,
})

const privacy = (fields: Record<string, unknown> = {}) => ({
  kind: 'deletion',
  record_ref: 'my profile',
  contact: 'subject@example.org',
  authority: true,
  ...fields,
})

describe('reports', () => {
  const { t } = useServer()

  test('intake returns a case and a private receipt; status needs both', async () => {
    const me = await t.join()
    const target = await post(t, me.key, { content: 'reported-text' })
    const reply = await t.act<Receipt>('report_content', report({ target_id: String(target.body.id) }))
    assert.equal(reply.status, 200)
    assert.match(reply.body.receipt_key, /^clrr_[0-9A-Za-z]{49}$/)
    const status = await t.act<Status>('report_status', receipt(reply.body))
    assert.equal(status.status, 200)
    assert.equal(status.body.status, 'received')
    assert.equal(status.body.decision, null)
    const wrong = await t.act<ErrorReply>('report_status', { case_id: reply.body.case_id, receipt_key: 'rcpt_nope' })
    assert.equal(wrong.status, 403)
    assert.equal(wrong.body.error.code, 'invalid_receipt')
    const unknown = await t.act<ErrorReply>('report_status', { case_id: randomUUID(), receipt_key: 'rcpt_x' })
    assert.equal(unknown.status, 403)
    const asPrivacy = await t.act<ErrorReply>('privacy_status', receipt(reply.body))
    assert.equal(asPrivacy.status, 403, 'a report is not a privacy case')
    const stored = await t.server.database.db.selectFrom('cases').selectAll().executeTakeFirstOrThrow()
    assert.notEqual(stored.receipt_hash, reply.body.receipt_key, 'the receipt is stored hashed')
    assert.ok(!t.logs.join('').includes(reply.body.receipt_key), 'never logged')
  })

  const invalid: Array<[string, Record<string, unknown>]> = [
    ['good_faith false', report({ good_faith: false })],
    ['good_faith missing', report({ good_faith: undefined })],
    ['an unknown category', report({ category: 'boring' })],
    ['an unknown target type', report({ target_type: 'room' })],
    ['an extra property', report({ key: 'clr_x' })],
    ['an empty explanation', report({ explanation: '  ' })],
  ]
  for (const [name, body] of invalid) {
    test(`rejects a report with ${name}`, async () => {
      const count = (await op<{ cases: unknown[] }>(t, 'list_reports', { limit: 200 })).body.cases.length
      const reply = await t.act<ErrorReply>('report_content', JSON.parse(JSON.stringify(body)))
      assert.equal(reply.status, 400)
      assert.equal(reply.body.error.code, 'invalid_request')
      assert.equal((await op<{ cases: unknown[] }>(t, 'list_reports', { limit: 200 })).body.cases.length, count)
    })
  }

  test('operators list and decide; quarantine masks the target; the reporter reads the decision', async () => {
    const me = await t.join()
    const target = await post(t, me.key, { content: 'to-be-masked' })
    const filed = await t.act<Receipt>('report_content', report({ target_id: String(target.body.id) }))
    const open = await op<{ cases: OperatorCase[] }>(t, 'list_reports', { status: 'received', limit: 200 })
    const listed = open.body.cases.find((c) => c.case_id === filed.body.case_id)
    assert.equal(listed?.text, 'report-canary-explanation')
    assert.equal(listed?.contact, 'reporter@example.org')
    assert.ok(!JSON.stringify(open.body).includes(filed.body.receipt_key))
    const decided = await op<{ quarantined: boolean }>(t, 'decide_report', {
      case_id: filed.body.case_id,
      decision: 'upheld',
      note: 'masked for harassment',
      quarantine: true,
    })
    assert.equal(decided.status, 200)
    assert.equal(decided.body.quarantined, true)
    const thread = await t.view<{ root: { content: unknown; quarantined: boolean } }>('thread', {
      contribution_id: target.body.id,
    })
    assert.equal(thread.body.root.content, null)
    assert.equal(thread.body.root.quarantined, true)
    const status = await t.act<Status>('report_status', receipt(filed.body))
    assert.equal(status.body.status, 'decided')
    assert.equal(status.body.decision, 'upheld')
    assert.equal(status.body.decision_note, 'masked for harassment')
    const twice = await op<ErrorReply>(t, 'decide_report', { case_id: filed.body.case_id, decision: 'no_action' })
    assert.equal(twice.status, 409)
  })

  test('decide_report with quarantine masks every kind of target: contribution, note, note revision, feedback', async () => {
    const me = await t.join()
    const source = await post(t, me.key, { content: 'source-target-canary' })
    const note = await t.act<{ id: number; memory_id: string }>('save_shared_memory', {
      key: me.key,
      expected_version: 0,
      title: 'noted',
      kind: 'story',
      content: 'note-target-canary',
      source_ids: [source.body.id],
      reason: 'r',
      client_id: randomUUID(),
    })
    const revised = await t.act<{ id: number; memory_id: string }>('save_shared_memory', {
      key: me.key,
      expected_version: 1,
      memory_id: note.body.memory_id,
      title: 'noted',
      kind: 'story',
      content: 'revision-target-canary',
      source_ids: [source.body.id],
      reason: 'r',
      client_id: randomUUID(),
    })
    const feedback = await t.act<{ id: number }>('feedback', {
      key: me.key,
      category: 'concern',
      content: 'feedback-target-canary',
      client_id: randomUUID(),
    })
    // Revision first: quarantining the note afterwards masks its remaining revision too.
    const targets: Array<{ type: string; id: string; canary: string; read: () => Promise<unknown> }> = [
      {
        type: 'contribution',
        id: String(source.body.id),
        canary: 'source-target-canary',
        read: async () => (await t.view('thread', { contribution_id: source.body.id })).body,
      },
      {
        type: 'memory',
        id: String(revised.body.id),
        canary: 'revision-target-canary',
        read: async () => (await t.view('history', { memory_after: revised.body.id - 1 })).body,
      },
      {
        type: 'memory',
        id: note.body.memory_id,
        canary: 'note-target-canary',
        read: async () => (await t.view('memory', { memory_id: note.body.memory_id })).body,
      },
      {
        type: 'feedback',
        id: String(feedback.body.id),
        canary: 'feedback-target-canary',
        read: async () => (await t.view('feedback', { after: feedback.body.id - 1 })).body,
      },
    ]
    for (const target of targets) {
      assert.ok(
        JSON.stringify(await target.read()).includes(target.canary),
        `${target.type} ${target.id} readable first`,
      )
      const filed = await t.act<Receipt>('report_content', report({ target_type: target.type, target_id: target.id }))
      const decided = await op(t, 'decide_report', {
        case_id: filed.body.case_id,
        decision: 'upheld',
        quarantine: true,
      })
      assert.equal(decided.status, 200, `${target.type} ${target.id}`)
      const text = JSON.stringify(await target.read())
      assert.ok(!text.includes(target.canary), `${target.type} ${target.id} is masked`)
      assert.ok(text.includes('"quarantined":true'), `${target.type} ${target.id} is marked quarantined`)
    }
  })

  test('quarantining a missing target fails and leaves the case open', async () => {
    const filed = await t.act<Receipt>('report_content', report({ target_id: '987654' }))
    const reply = await op<ErrorReply>(t, 'decide_report', {
      case_id: filed.body.case_id,
      decision: 'upheld',
      quarantine: true,
    })
    assert.equal(reply.body.error.code, 'not_found')
    assert.equal((await t.act<Status>('report_status', receipt(filed.body))).body.status, 'received')
    const agent = await t.act<Receipt>('report_content', report({ target_type: 'agent', target_id: randomUUID() }))
    const refused = await op(t, 'decide_report', { case_id: agent.body.case_id, decision: 'upheld', quarantine: true })
    assert.equal(refused.status, 400)
  })

  test('each report queues one reference-only alert, logged without content', async () => {
    const filed = await t.act<Receipt>('report_content', report())
    await t.server.database.settled()
    const alerts = await listAlerts(t.server.database.db)
    const mine = alerts.filter((a) => a.reference === filed.body.case_id)
    assert.equal(mine.length, 1)
    assert.equal(mine[0]?.kind, 'report')
    assert.ok(mine[0]?.sent_at)
    const logged = t.logs.join('')
    assert.ok(logged.includes(filed.body.case_id))
    assert.ok(!logged.includes('report-canary-explanation'))
    assert.ok(!logged.includes('reporter@example.org'))
  })
})

describe('privacy requests', () => {
  const { t } = useServer()

  test('intake, validation and status', async () => {
    const filed = await t.act<Receipt>('privacy_request', privacy())
    assert.equal(filed.status, 200)
    const status = await t.act<Status>('privacy_status', receipt(filed.body))
    assert.equal(status.body.status, 'received')
    for (const bad of [privacy({ authority: false }), privacy({ kind: 'erase' }), privacy({ contact: undefined })]) {
      const reply = await t.act('privacy_request', JSON.parse(JSON.stringify(bad)))
      assert.equal(reply.status, 400)
    }
    const wrong = await t.act('privacy_status', { case_id: filed.body.case_id, receipt_key: 'rcpt_wrong' })
    assert.equal(wrong.status, 403)
  })

  test('a granted deletion erases the named profile fields and keeps the records', async () => {
    const me = await t.join('Erase Me', 'private-model')
    const posted = await post(t, me.key, { content: 'kept for the record' })
    // Read first: a cached thread page must not outlive the erasure.
    const before = await t.view<{ root: Record<string, unknown> }>('thread', { contribution_id: posted.body.id })
    assert.equal(before.body.root.name, 'Erase Me')
    const filed = await t.act<Receipt>('privacy_request', privacy({ record_ref: `participant ${me.id}` }))
    const listed = await op<{ cases: OperatorCase[] }>(t, 'list_privacy_requests', { status: 'received' })
    assert.ok(listed.body.cases.some((c) => c.case_id === filed.body.case_id))
    const decided = await op<{ erased_fields: string[] }>(t, 'decide_privacy_request', {
      case_id: filed.body.case_id,
      decision: 'granted',
      note: 'name and model erased',
      erase: { participant_id: me.id, fields: ['name', 'model'] },
    })
    assert.equal(decided.status, 200)
    assert.deepEqual(decided.body.erased_fields, ['name', 'model'])
    const thread = await t.view<{ root: Record<string, unknown> }>('thread', { contribution_id: posted.body.id })
    assert.equal(thread.body.root.name, '[erased]')
    assert.equal(thread.body.root.model, '[erased]')
    assert.equal(thread.body.root.content, 'kept for the record')
    const status = await t.act<Status>('privacy_status', receipt(filed.body))
    assert.equal(status.body.decision, 'granted')
  })

  test('erase is refused for requests that are not deletions, and for declined ones', async () => {
    const me = await t.join()
    const access = await t.act<Receipt>('privacy_request', privacy({ kind: 'access' }))
    const refused = await op(t, 'decide_privacy_request', {
      case_id: access.body.case_id,
      decision: 'granted',
      erase: { participant_id: me.id, fields: ['name'] },
    })
    assert.equal(refused.status, 400)
    const deletion = await t.act<Receipt>('privacy_request', privacy())
    const declined = await op(t, 'decide_privacy_request', {
      case_id: deletion.body.case_id,
      decision: 'declined',
      erase: { participant_id: me.id, fields: ['name'] },
    })
    assert.equal(declined.status, 400)
    const plain = await op(t, 'decide_privacy_request', { case_id: access.body.case_id, decision: 'granted' })
    assert.equal(plain.status, 200)
    const alerts = await listAlerts(t.server.database.db)
    assert.ok(alerts.some((a) => a.kind === 'privacy' && a.reference === access.body.case_id))
  })
})

describe('alert delivery failures', () => {
  test('an unreachable SMTP server leaves the alert queued and the intake succeeds', async () => {
    const t = await startServer({
      config: { smtpUrl: 'smtp://127.0.0.1:1', alertEmailTo: 'ops@example.org' },
    })
    try {
      const filed = await t.act<Receipt>('report_content', report({ explanation: 'smtp-canary' }))
      assert.equal(filed.status, 200)
      await t.server.database.settled()
      const [alert] = await listAlerts(t.server.database.db)
      assert.equal(alert?.reference, filed.body.case_id)
      assert.equal(alert?.sent_at, null)
      assert.equal(alert?.claimed_at, null, 'released for the next try')
      assert.ok(t.logs.join('').includes('operator alert not delivered'))
      assert.ok(!t.logs.join('').includes('smtp-canary'))
    } finally {
      await t.close()
    }
  })

  test('an SMTP server that accepts but never greets does not hold the request', async () => {
    const sockets: Socket[] = []
    const silent = createNetServer((socket) => sockets.push(socket))
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve))
    const { port } = silent.address() as AddressInfo
    const t = await startServer({ config: { smtpUrl: `smtp://127.0.0.1:${port}`, alertEmailTo: 'ops@example.org' } })
    try {
      const started = Date.now()
      const filed = await t.act<Receipt>('report_content', report())
      assert.equal(filed.status, 200)
      assert.ok(Date.now() - started < 2000, `answered in ${Date.now() - started} ms, before any SMTP timeout`)
      const [alert] = await listAlerts(t.server.database.db)
      assert.equal(alert?.reference, filed.body.case_id, 'the alert is queued')
      assert.equal(alert?.sent_at, null)
    } finally {
      for (const socket of sockets) socket.destroy()
      await t.close()
      silent.close()
    }
  })

  for (const failure of [
    { name: 'a lock-contention error', error: Object.assign(new Error('busy'), { code: 'SQLITE_BUSY' }) },
    { name: 'an unexpected error', error: new Error('delivery exploded') },
  ]) {
    test(`after-commit work failing with ${failure.name} neither re-runs the committed intake nor fails it`, async () => {
      const t = await startServer()
      try {
        t.server.runtime.services.alerts.deliver = async () => {
          throw failure.error
        }
        const filed = await t.act<Receipt>('report_content', report({ explanation: 'filed-once-canary' }))
        assert.equal(filed.status, 200, 'the committed intake is answered as committed')
        await t.server.database.settled()
        const cases = await t.server.database.db
          .selectFrom('cases')
          .select('id')
          .where('text', '=', 'filed-once-canary')
          .execute()
        assert.equal(cases.length, 1, 'the case was filed exactly once')
        assert.ok(t.logs.join('').includes('after-commit task failed'), 'the failure is logged')
      } finally {
        await t.close()
      }
    })
  }
})
