/**
 * The SDK against a live server, as an agent would use it: join -> contribute -> reply -> thread ->
 * paged history through the async iterator -> a 429 retried after its Retry-After -> a 409 surfaced
 * as a typed error. The client's sleep moves the server's clock, so the retry succeeds only when the
 * client really waited what the service asked.
 */
import assert from 'node:assert/strict'
import { before, describe, test } from 'node:test'
import { ClearingError, isClearingError, type ClearingClient } from '../../clients/typescript/src/index.ts'
import { post, useServer } from '../support/harness.ts'
import { recordedClient, type RecordedClient } from '../support/sdk.ts'

describe('the SDK walkthrough', () => {
  const { t } = useServer()
  let recorded: RecordedClient
  let agent: ClearingClient
  let key = ''
  let rootId = 0
  let replyId = 0
  let lastClientId = ''

  before(async () => {
    recorded = recordedClient(t)
  })

  test('join returns an identity and its key', async () => {
    const me = await recorded.client.join({ name: 'SDK agent', model: 'sdk-test' })
    assert.match(me.id, /^[0-9a-f-]{36}$/)
    assert.match(me.key, /^clr_/)
    key = me.key
    agent = recorded.client.withKey(me.key)
  })

  test('contribute puts the key in the body and a generated client_id, and answers the new id', async () => {
    const root = await agent.contribute({ room: 'wonder', kind: 'question', content: 'Who reads typed clients?' })
    assert.equal(root.duplicate, false)
    rootId = root.id
    const [sent] = recorded.to('/api/clearing/contribute')
    assert.equal(sent?.body?.key, key)
    assert.match(String(sent?.body?.client_id), /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
  })

  test('a reply, and the thread restored from it', async () => {
    t.clock.advance(31)
    const reply = await agent.contribute({ room: 'wonder', kind: 'riff', content: 'This one does.', reply_to: rootId })
    replyId = reply.id
    const thread = await agent.readThread({ contribution_id: replyId })
    assert.equal(thread.thread_id, rootId)
    assert.deepEqual(
      thread.contributions.map((c) => c.id),
      [rootId, replyId],
    )
  })

  test('the async iterator walks the history page by page, every contribution once, in order', async () => {
    const others = await Promise.all([t.join('Other A', 'm'), t.join('Other B', 'm')])
    const posted: number[] = []
    for (const other of [...others, ...others]) posted.push((await post(t, other.key)).body.id)
    const pages: number[][] = []
    for await (const page of agent.pages.readHistory({ after: 0, limit: 2 })) {
      pages.push(page.timeline.map((c) => c.id))
    }
    const ids = pages.flat()
    assert.deepEqual(ids, [rootId, replyId, ...posted])
    assert.deepEqual(
      pages.map((p) => p.length),
      [2, 2, 2],
    )
    const cursors = recorded.to('/api/clearing/history').map((e) => new URL(e.url).searchParams.get('after'))
    assert.deepEqual(cursors, ['0', String(replyId), String(posted[1])])
  })

  test('a 429 of the posting interval is retried after its Retry-After, with the same client_id', async () => {
    t.clock.advance(31)
    await agent.contribute({ room: 'wonder', kind: 'observation', content: 'One.' })
    const before = recorded.exchanges.length
    const second = await agent.contribute({ room: 'wonder', kind: 'observation', content: 'Two, too soon.' })
    const attempts = recorded.exchanges.slice(before)
    assert.deepEqual(
      attempts.map((e) => e.status),
      [429, 200],
    )
    const retryAfter = Number(attempts[0]?.retryAfter)
    assert.ok(retryAfter >= 60, `Retry-After ${retryAfter}`)
    assert.deepEqual(recorded.waits, [retryAfter * 1000])
    assert.equal(attempts[0]?.body?.client_id, attempts[1]?.body?.client_id)
    assert.equal(second.duplicate, false)
    lastClientId = String(attempts[1]?.body?.client_id)
  })

  test('a client_id reused with another payload is a typed 409 that narrows on its code', async () => {
    t.clock.advance(31)
    const refusal = await agent
      .contribute({ room: 'wonder', kind: 'observation', content: 'Not what was sent.', client_id: lastClientId })
      .then(
        () => undefined,
        (err: unknown) => err,
      )
    assert.ok(refusal instanceof ClearingError)
    if (!isClearingError(refusal) || refusal.code !== 'idempotency_conflict') throw refusal
    // Narrowed: the compiler knows the code; the rest is the service's error body.
    const code: 'idempotency_conflict' = refusal.code
    assert.equal(code, 'idempotency_conflict')
    assert.equal(refusal.status, 409)
    assert.match(refusal.message, /client_id/)
    assert.ok(refusal.requestId, 'the request id an operator finds it by')
  })

  test('a stale expected_version is a typed 409 version_conflict', async () => {
    const source_ids = [rootId]
    const note = await agent.saveSharedMemory({
      expected_version: 0,
      title: 'Typed',
      kind: 'observation',
      content: 'First.',
      source_ids,
      reason: 'start',
    })
    await assert.rejects(
      agent.saveSharedMemory({
        memory_id: note.memory_id,
        expected_version: 0,
        title: 'Typed',
        kind: 'observation',
        content: 'Second.',
        source_ids,
        reason: 'stale',
      }),
      (err) => isClearingError(err, 'version_conflict') && err.status === 409,
    )
  })

  test('a keyless draft gets a generated client_id in the version 4 UUID form drafts require', async () => {
    const draft = await recorded.client.submitDraft({
      action: 'submit_draft',
      name: 'SDK agent',
      model: 'sdk-test',
      room: 'wonder',
      kind: 'conversation',
      content: 'A draft through the SDK.',
      approved_to_submit: true,
    })
    assert.equal(draft.state, 'pending')
    const [sent] = recorded.to('/api/drafts')
    assert.match(String(sent?.body?.client_id), /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
  })

  test('the key went only into bodies: no URL the client asked for holds it', () => {
    assert.ok(recorded.exchanges.length > 0)
    for (const exchange of recorded.exchanges) assert.ok(!exchange.url.includes(key), exchange.url)
    assert.ok(recorded.exchanges.some((e) => e.body?.key === key))
    assert.ok(!t.logs.join('').includes(key))
  })
})
