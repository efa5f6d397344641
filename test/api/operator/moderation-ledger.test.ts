/**
 * The public moderation ledger (DESIGN.md › Trust and safety): each quarantine, release, suspension,
 * reinstatement and write pause or resume writes one entry in the same transaction, with a reason
 * code from the documented list and how to appeal; masked records link to it; it reads paged over
 * REST, MCP and the web; moderation actions without a valid reason_code answer 400.
 */
import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { after, before, describe, test } from 'node:test'
import { post, startServer, type TestServer } from '../../support/harness.ts'
import { callTool, connectMcp, type McpSession } from '../../support/mcp.ts'
import { op, OPERATOR_KEY } from '../../support/operator.ts'

type Entry = {
  id: number
  at: string
  action: string
  target_type: string
  target_id: string | null
  reason_code: string
  appeal: Record<string, string>
}
type Ledger = { entries: Entry[]; next_cursor: number; has_more: boolean }
type ErrorBody = { error: { code: string; details?: Array<{ path: string; message: string }> } }

const FIELDS = ['id', 'at', 'action', 'target_type', 'target_id', 'reason_code', 'appeal']

describe('the moderation ledger', () => {
  let t: TestServer
  let mcp: McpSession
  let me: { id: string; key: string }
  let postId: number
  const ledger = async (after = 0) => (await t.view<Ledger>('moderation', { after })).body.entries

  before(async () => {
    t = await startServer()
    mcp = await connectMcp(t.url)
    me = await t.join('Moderated', 'm')
    postId = (await post(t, me.key, { content: 'a post that will be masked' })).body.id
  })
  after(async () => {
    await mcp.close()
    await t.close()
  })

  test('every moderation act writes one public entry with its reason code and how to appeal', async () => {
    const acts: Array<[string, Record<string, unknown>, string, string | null]> = [
      ['quarantine', { target_type: 'contribution', target_id: postId }, 'contribution', String(postId)],
      ['release', { target_type: 'contribution', target_id: postId }, 'contribution', String(postId)],
      ['suspend_participant', { participant_id: me.id }, 'participant', me.id],
      ['reinstate_participant', { participant_id: me.id }, 'participant', me.id],
      ['pause_writes', {}, 'writes', null],
      ['resume_writes', {}, 'writes', null],
    ]
    const start = (await ledger()).at(-1)?.id ?? 0
    for (const [action, fields, targetType, targetId] of acts) {
      const reply = await op<{ moderation_id: number }>(t, action, {
        ...fields,
        reason_code: 'spam',
        reason: 'PRIVATE-OPERATOR-NOTE',
      })
      assert.equal(reply.status, 200, `${action}: ${JSON.stringify(reply.body)}`)
      const [entry] = (await ledger(start)).filter((e) => e.id === reply.body.moderation_id)
      assert.ok(entry, `${action} has its entry`)
      assert.deepEqual(Object.keys(entry).sort(), [...FIELDS].sort())
      assert.equal(entry.action, action)
      assert.equal(entry.target_type, targetType)
      assert.equal(entry.target_id, targetId)
      assert.equal(entry.reason_code, 'spam')
      assert.deepEqual(entry.appeal, {
        action: 'report_content',
        target_type: 'moderation',
        target_id: String(entry.id),
        category: 'appeal',
      })
    }
    const text = JSON.stringify((await t.view('moderation', { after: start })).body)
    assert.ok(!text.includes('PRIVATE-OPERATOR-NOTE'), 'the private reason stays in the audit log')
    assert.ok(!text.includes(OPERATOR_KEY), 'no operator key')
  })

  test('a masked record names its entry; release clears the link', async () => {
    const masked = await op<{ moderation_id: number }>(t, 'quarantine', {
      target_type: 'contribution',
      target_id: postId,
      reason_code: 'malicious_instructions',
      reason: 'x',
    })
    const history = await t.view<{ timeline: Array<Record<string, unknown>> }>('history', { limit: 200 })
    const item = history.body.timeline.find((c) => c.id === postId)
    assert.equal(item?.moderation_id, masked.body.moderation_id)
    const entry = (await ledger()).find((e) => e.id === masked.body.moderation_id)
    assert.equal(entry?.reason_code, 'malicious_instructions')
    const page = await fetch(`${t.url}/c/${postId}`).then((r) => r.text())
    assert.ok(page.includes(`/moderation#m-${masked.body.moderation_id}`), 'the web view links the entry')
    await op(t, 'release', { target_type: 'contribution', target_id: postId, reason_code: 'other', reason: 'x' })
    const released = (await t.view<{ timeline: Array<Record<string, unknown>> }>('history', { limit: 200 })).body
    assert.equal(
      released.timeline.find((c) => c.id === postId)?.moderation_id,
      undefined,
      'no link once it reads normally',
    )
  })

  test('an act that fails writes no entry (same transaction)', async () => {
    const before = (await ledger()).length
    const missing = await op<ErrorBody>(t, 'quarantine', {
      target_type: 'feedback',
      target_id: 987654,
      reason_code: 'spam',
      reason: 'x',
    })
    assert.equal(missing.body.error.code, 'not_found')
    const unknown = await op<ErrorBody>(t, 'suspend_participant', {
      participant_id: randomUUID(),
      reason_code: 'spam',
      reason: 'x',
    })
    assert.equal(unknown.body.error.code, 'not_found')
    assert.equal((await ledger()).length, before)
  })

  test('a missing or unknown reason_code answers 400 in the validation form, on every moderation action', async () => {
    const fields: Record<string, Record<string, unknown>> = {
      quarantine: { target_type: 'contribution', target_id: postId, reason: 'x' },
      release: { target_type: 'contribution', target_id: postId, reason: 'x' },
      suspend_participant: { participant_id: me.id, reason: 'x' },
      reinstate_participant: { participant_id: me.id, reason: 'x' },
      pause_writes: {},
      resume_writes: {},
    }
    const before = (await ledger()).length
    for (const [action, base] of Object.entries(fields)) {
      for (const code of [undefined, 'because', 'SPAM', '']) {
        const reply = await op<ErrorBody>(t, action, code === undefined ? base : { ...base, reason_code: code })
        assert.equal(reply.status, 400, `${action} with ${String(code)}`)
        assert.equal(reply.body.error.code, 'invalid_request')
        assert.ok(
          reply.body.error.details?.some((d) => d.path.includes('reason_code')),
          `${action}: names reason_code (${JSON.stringify(reply.body.error.details)})`,
        )
      }
    }
    assert.equal((await ledger()).length, before, 'nothing recorded')
    const writes = await t.act('visit', { key: me.key })
    assert.equal(writes.status, 200, 'writes were never paused by a refused call')
  })

  test('a quarantine decided on a report is recorded with the report category, or a given reason code', async () => {
    const report = async (category: string) =>
      (
        await t.act<{ case_id: string }>('report_content', {
          target_type: 'contribution',
          target_id: String(postId),
          category,
          explanation: 'x',
          good_faith: true,
        })
      ).body.case_id
    const harassment = await op(t, 'decide_report', {
      case_id: await report('harassment'),
      decision: 'upheld',
      quarantine: true,
    })
    assert.equal(harassment.status, 200)
    const last = (await ledger()).at(-1)
    assert.deepEqual(
      [last?.action, last?.target_type, last?.target_id, last?.reason_code],
      ['quarantine', 'contribution', String(postId), 'harassment'],
    )
    // appeal is a report category, not a reason: the operator must give one.
    const appealCase = await report('appeal')
    const unnamed = await op<ErrorBody>(t, 'decide_report', {
      case_id: appealCase,
      decision: 'upheld',
      quarantine: true,
    })
    assert.equal(unnamed.status, 400)
    assert.equal(unnamed.body.error.details?.[0]?.path, '/reason_code')
    const named = await op(t, 'decide_report', {
      case_id: appealCase,
      decision: 'upheld',
      quarantine: true,
      reason_code: 'impersonation',
    })
    assert.equal(named.status, 200)
    assert.equal((await ledger()).at(-1)?.reason_code, 'impersonation')
    const bad = await op<ErrorBody>(t, 'decide_report', {
      case_id: await report('spam'),
      decision: 'upheld',
      quarantine: true,
      reason_code: 'nope',
    })
    assert.equal(bad.status, 400)
  })

  test('an entry is appealed with report_content, category appeal, naming the entry', async () => {
    const entry = (await ledger()).at(-1) as Entry
    const appeal = await t.act<{ case_id: string; receipt_key: string }>('report_content', {
      ...entry.appeal,
      explanation: 'This was a quote, not a lure.',
      good_faith: true,
    })
    assert.equal(appeal.status, 200)
    const cases = await op<{ cases: Array<{ case_id: string; target_type: string; target_id: string }> }>(
      t,
      'list_reports',
    )
    const filed = cases.body.cases.find((c) => c.case_id === appeal.body.case_id)
    assert.deepEqual([filed?.target_type, filed?.target_id], ['moderation', String(entry.id)])
    const decided = await op<ErrorBody>(t, 'decide_report', {
      case_id: appeal.body.case_id,
      decision: 'upheld',
      quarantine: true,
      reason_code: 'other',
    })
    assert.equal(decided.status, 400, 'a ledger entry is not content to quarantine')
  })

  test('MCP read_moderation_ledger answers what REST does; bad input is a tool error', async () => {
    const rest = await t.view<Ledger>('moderation', { limit: 3 })
    const tool = await callTool<Ledger>(mcp, 'read_moderation_ledger', { limit: 3 })
    assert.equal(tool.isError, false)
    assert.deepEqual(tool.body, rest.body)
    const bad = await callTool<ErrorBody>(mcp, 'read_moderation_ledger', { after: -1 })
    assert.equal(bad.isError, true)
    assert.equal(bad.body.error.code, 'invalid_request')
    const badRest = await t.view<ErrorBody>('moderation', { limit: 0 })
    assert.equal(badRest.status, 400)
  })

  test('the web page /moderation lists the entries with reason codes and how to appeal', async () => {
    const res = await fetch(`${t.url}/moderation`)
    assert.equal(res.status, 200)
    const page = await res.text()
    const first = (await ledger())[0] as Entry
    assert.ok(page.includes(`id="m-${first.id}"`))
    assert.ok(page.includes(first.reason_code))
    assert.ok(page.includes('report_content'))
    assert.ok(!page.includes('PRIVATE-OPERATOR-NOTE'))
  })

  test('the descriptor documents the reason codes and the ledger', async () => {
    const body = (await t.view<{ protocol: { moderation: { reason_codes: string[] } } }>(undefined)).body
    assert.deepEqual(body.protocol.moderation.reason_codes, [
      'spam',
      'harassment',
      'threat',
      'illegal_content',
      'privacy',
      'copyright',
      'sexual_exploitation',
      'impersonation',
      'secret_exposure',
      'malicious_instructions',
      'other',
    ])
  })
})
