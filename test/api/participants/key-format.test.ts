import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { checksumHolds, checksumOf, PARTICIPANT_KEY_PATTERN } from '../../../src/services/key-format.ts'
import { KEY_FAILURE_LIMIT } from '../../../src/core/key-guard.ts'
import { codeOf } from '../../support/errors.ts'
import { freshKey, legacyKey, post, startServer, useServer } from '../../support/harness.ts'
import { callTool, connectMcp } from '../../support/mcp.ts'

/** The same key with its last checksum digit changed: the shape of a key, a checksum that fails. */
function mistyped(key: string): string {
  const last = key.at(-1) === '0' ? '1' : '0'
  return key.slice(0, -1) + last
}

describe('keys in the checksummed format (issue 54, part 1)', () => {
  const { t } = useServer()

  test('join issues clr_ + 43 base62 + 6 base62 of their CRC32; receipts are clrr_ keys', async () => {
    const me = await t.join()
    assert.match(me.key, new RegExp(PARTICIPANT_KEY_PATTERN))
    assert.equal(checksumHolds(me.key), true)
    assert.equal(me.key.slice(-6), checksumOf(me.key.slice(4, 47)))
    const report = await t.act<{ receipt_key: string }>('report_content', {
      target_type: 'agent',
      target_id: me.id,
      category: 'spam',
      explanation: 'a report',
      good_faith: true,
    })
    assert.match(report.body.receipt_key, /^clrr_[0-9A-Za-z]{49}$/)
    assert.equal(checksumHolds(report.body.receipt_key), true)
  })

  test('a key whose checksum does not match answers 403 invalid_key, on REST and MCP', async () => {
    const me = await t.join()
    const rest = await post(t, mistyped(me.key))
    assert.equal(rest.status, 403)
    assert.equal(codeOf(rest.body), 'invalid_key')
    const mcp = await connectMcp(t.url)
    const tool = await callTool(mcp, 'record_visit', { key: mistyped(me.key) })
    assert.equal(tool.isError, true)
    assert.match(JSON.stringify(tool.body), /invalid_key/)
    await mcp.close()
    assert.equal((await post(t, me.key)).status, 200, 'the real key still works')
  })

  test('a mistyped receipt key answers 403 invalid_key', async () => {
    const report = await t.act<{ case_id: string; receipt_key: string }>('report_content', {
      target_type: 'agent',
      target_id: 'someone',
      category: 'spam',
      explanation: 'another report',
      good_faith: true,
    })
    const status = await t.act('report_status', {
      case_id: report.body.case_id,
      receipt_key: mistyped(report.body.receipt_key),
    })
    assert.equal(status.status, 403)
    assert.equal(codeOf(status.body), 'invalid_key')
  })

  test('mistyped keys count as guesses in the one abuse bucket', async () => {
    const guesser = await startServer()
    try {
      const me = await guesser.join()
      // visit, not post: post moves the clock 31 s a call, past the window of the count.
      const visit = () => guesser.act('visit', { key: mistyped(me.key) })
      for (let i = 0; i < KEY_FAILURE_LIMIT; i++) assert.equal((await visit()).status, 403)
      const over = await visit()
      assert.equal(over.status, 429)
    } finally {
      await guesser.close()
    }
  })

  test('rotate_key accepts a checksummed key and a key in the older format; both work afterwards', async () => {
    const me = await t.join()
    const next = freshKey()
    assert.equal((await t.act('rotate_key', { key: me.key, new_key: next })).status, 200)
    assert.equal((await post(t, next)).status, 200)
    const older = legacyKey()
    assert.equal((await t.act('rotate_key', { key: next, new_key: older })).status, 200)
    assert.equal((await post(t, older)).status, 200, 'keys in the older format keep working')
  })

  test('rotate_key refuses a checksummed new_key with a wrong checksum or a guessable body', async () => {
    const me = await t.join()
    const weakBody = 'a'.repeat(43)
    for (const newKey of [
      mistyped(freshKey()),
      `clr_${weakBody}${checksumOf(weakBody)}`,
      `clrr_${freshKey().slice(4)}`,
    ]) {
      const reply = await t.act('rotate_key', { key: me.key, new_key: newKey })
      assert.equal(reply.status, 400, newKey.slice(0, 8))
      assert.equal(codeOf(reply.body), 'key_not_acceptable')
    }
  })
})
