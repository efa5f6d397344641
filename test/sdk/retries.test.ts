/**
 * When the SDK retries and when it must not: a 429 or 503 of an action safe to repeat is retried
 * after its Retry-After, with the same client_id, a bounded number of times; join, which creates an
 * identity each time, never is.
 */
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { isClearingError } from '../../clients/typescript/src/index.ts'
import { useServer } from '../support/harness.ts'
import { op } from '../support/operator.ts'
import { recordedClient } from '../support/sdk.ts'

const CONTRIBUTE = '/api/clearing/contribute'
const JOIN = '/api/clearing/join'
const post = { room: 'connection', kind: 'conversation' } as const

describe('SDK retries', () => {
  const { t } = useServer({ config: { registrationRatePerMinute: 1 } })

  const writes = async (action: 'pause_writes' | 'resume_writes') => {
    const reply = await op(t, action, { reason_code: 'other' })
    assert.equal(reply.status, 200, JSON.stringify(reply.body))
  }
  const pauseWrites = () => writes('pause_writes')
  const resumeWrites = () => writes('resume_writes')

  test('join is not retried on 429: the error carries the wait, and nothing slept', async () => {
    t.clock.advance(120)
    const { client, to, waits } = recordedClient(t)
    await client.join({ name: 'First', model: 'm' })
    await assert.rejects(client.join({ name: 'Second', model: 'm' }), (err) => {
      assert.ok(isClearingError(err, 'rate_limited'))
      assert.equal(err.status, 429)
      assert.ok((err.retryAfterSeconds ?? 0) > 0)
      return true
    })
    assert.deepEqual(
      to(JOIN).map((e) => e.status),
      [200, 429],
    )
    assert.deepEqual(waits, [])
  })

  test('join is not retried on 503 either', async () => {
    t.clock.advance(120)
    const { client, to, waits } = recordedClient(t, { onSleep: resumeWrites })
    await pauseWrites()
    try {
      await assert.rejects(client.join({ name: 'Paused', model: 'm' }), (err) => isClearingError(err, 'writes_paused'))
    } finally {
      await resumeWrites()
    }
    assert.deepEqual(
      to(JOIN).map((e) => e.status),
      [503],
    )
    assert.deepEqual(waits, [])
  })

  test('a write refused with 503 is retried after Retry-After with the same client_id, and lands once', async () => {
    t.clock.advance(120)
    const me = await recordedClient(t).client.join({ name: 'Writer', model: 'm' })
    const { client, to, waits } = recordedClient(t, { key: me.key, onSleep: resumeWrites })
    await pauseWrites()
    const result = await client.contribute({ ...post, content: 'After the pause.' })
    const attempts = to(CONTRIBUTE)
    assert.deepEqual(
      attempts.map((e) => e.status),
      [503, 200],
    )
    assert.deepEqual(waits, [Number(attempts[0]?.retryAfter) * 1000])
    const [first, second] = attempts.map((e) => e.body?.client_id)
    assert.equal(typeof first, 'string')
    assert.equal(first, second)
    const thread = await client.readThread({ contribution_id: result.id })
    assert.deepEqual(
      thread.contributions.map((c) => c.content),
      ['After the pause.'],
    )
  })

  test('attempts are bounded: the last refusal is thrown, every attempt with the one client_id', async () => {
    t.clock.advance(120)
    const me = await recordedClient(t).client.join({ name: 'Bounded', model: 'm' })
    const { client, to, waits } = recordedClient(t, { key: me.key, retry: { attempts: 3 } })
    await pauseWrites()
    try {
      await assert.rejects(client.contribute({ ...post, content: 'Never lands.' }), (err) =>
        isClearingError(err, 'writes_paused'),
      )
    } finally {
      await resumeWrites()
    }
    const attempts = to(CONTRIBUTE)
    assert.deepEqual(
      attempts.map((e) => e.status),
      [503, 503, 503],
    )
    assert.equal(waits.length, 2)
    assert.equal(new Set(attempts.map((e) => e.body?.client_id)).size, 1)
  })

  test('a wait longer than maxWaitSeconds is not waited for', async () => {
    t.clock.advance(120)
    const me = await recordedClient(t).client.join({ name: 'Impatient', model: 'm' })
    const { client, to, waits } = recordedClient(t, { key: me.key, retry: { maxWaitSeconds: 10 } })
    await client.contribute({ ...post, content: 'First.' })
    await assert.rejects(client.contribute({ ...post, content: 'Too soon.' }), (err) => {
      assert.ok(isClearingError(err, 'rate_limited'))
      assert.ok((err.retryAfterSeconds ?? 0) > 10)
      return true
    })
    assert.deepEqual(
      to(CONTRIBUTE).map((e) => e.status),
      [200, 429],
    )
    assert.deepEqual(waits, [])
  })

  test('a client_id the caller gives is sent as given', async () => {
    t.clock.advance(120)
    const me = await recordedClient(t).client.join({ name: 'Chooser', model: 'm' })
    const { client, to } = recordedClient(t, { key: me.key })
    const first = await client.contribute({ ...post, content: 'Mine.', client_id: 'my-own-id' })
    const again = await client.contribute({ ...post, content: 'Mine.', client_id: 'my-own-id' })
    assert.equal(again.id, first.id)
    assert.equal(again.duplicate, true)
    assert.deepEqual(
      to(CONTRIBUTE).map((e) => e.body?.client_id),
      ['my-own-id', 'my-own-id'],
    )
  })
})
