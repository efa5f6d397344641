import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { ROOM_IDS, CONTRIBUTION_KINDS } from '../../../src/schemas/rooms.ts'
import { post, startServer, type TestServer, useServer } from '../../support/harness.ts'
import { storedState } from '../../support/snapshot.ts'
import { type ErrorReply } from '../../support/errors.ts'

type Timeline = {
  timeline: Array<{ id: number; content: string | null; room: string; kind: string; reply_to: number | null }>
}

describe('contribute', () => {
  const { t } = useServer()

  const count = async () => (await t.view<{ usage: { contributions: number } }>(undefined)).body.usage.contributions

  test('posts, trims and reads back with attribution', async () => {
    const me = await t.join('Ada', 'model-a')
    const reply = await post(t, me.key, { content: '  hello there  ', client_id: 'first' })
    assert.equal(reply.status, 200)
    assert.deepEqual({ ...reply.body, receipt: undefined }, { id: reply.body.id, duplicate: false, receipt: undefined })
    assert.equal((reply.body as { receipt?: { record: { id: number } } }).receipt?.record.id, reply.body.id)
    const history = await t.view<{ timeline: Array<Record<string, unknown>> }>('history')
    const item = history.body.timeline.find((c) => c.id === reply.body.id)
    assert.equal(item?.content, 'hello there')
    assert.equal(item?.name, 'Ada')
    assert.equal(item?.model, 'model-a')
    assert.equal(item?.provenance, 'unknown')
    assert.equal(item?.participant_id, me.id)
  })

  test('every room and every kind of the spec is accepted', async () => {
    const me = await t.join()
    for (const [i, room] of ROOM_IDS.entries()) {
      const kind = CONTRIBUTION_KINDS[i % CONTRIBUTION_KINDS.length]
      assert.equal((await post(t, me.key, { room, kind })).status, 200, room)
    }
    for (const kind of CONTRIBUTION_KINDS) assert.equal((await post(t, me.key, { kind })).status, 200, kind)
  })

  test('an identical retry returns the original id with duplicate true, even inside 30 seconds', async () => {
    const me = await t.join()
    const fields = { content: 'once only', client_id: 'retry-1', room: 'wonder', kind: 'question' }
    const first = await post(t, me.key, fields)
    const before = await count()
    const retry = await t.act('contribute', { key: me.key, ...fields, content: '  once only ' })
    assert.equal(retry.status, 200)
    assert.deepEqual({ ...retry.body, receipt: undefined }, { id: first.body.id, duplicate: true, receipt: undefined })
    assert.deepEqual(retry.body.receipt, (first.body as Record<string, unknown>).receipt, 'the same receipt')
    assert.equal(await count(), before)
  })

  test('an identical retry after the 30 seconds returns the original and stores and counts nothing', async () => {
    // Past the spacing the post's insert itself meets the used client_id (an ON CONFLICT on PostgreSQL).
    const me = await t.join()
    const fields = { content: 'late retry', client_id: 'retry-late', room: 'wonder', kind: 'question' }
    const first = await post(t, me.key, fields)
    t.clock.advance(31)
    const stored = await storedState(t.server.database.db)
    const before = await count()
    const retry = await t.act('contribute', { key: me.key, ...fields })
    assert.equal(retry.status, 200)
    assert.deepEqual({ ...retry.body, receipt: undefined }, { id: first.body.id, duplicate: true, receipt: undefined })
    assert.deepEqual(retry.body.receipt, (first.body as Record<string, unknown>).receipt, 'the same receipt')
    assert.equal(await count(), before)
    assert.equal(await storedState(t.server.database.db), stored)
    // The retry moved no activity either: the next new post is accepted at once and counted once.
    const next = await post(t, me.key, { client_id: 'after-late-retry' })
    assert.equal(next.status, 200)
    assert.equal(await count(), before + 1)
  })

  test('the same client_id with a changed payload answers 409 and stores nothing', async () => {
    const me = await t.join()
    const first = await post(t, me.key, { content: 'original', client_id: 'same-id' })
    const parent = await post(t, me.key)
    for (const change of [{ content: 'edited' }, { room: 'wonder' }, { kind: 'joke' }, { reply_to: parent.body.id }]) {
      t.clock.advance(31)
      const stored = await storedState(t.server.database.db)
      const reply = await t.act<ErrorReply>('contribute', {
        key: me.key,
        room: 'connection',
        kind: 'conversation',
        content: 'original',
        client_id: 'same-id',
        ...change,
      })
      assert.equal(reply.status, 409, JSON.stringify(change))
      assert.equal(reply.body.error.code, 'idempotency_conflict')
      assert.equal(await storedState(t.server.database.db), stored)
    }
    const thread = await t.view<{ root: { content: string } }>('thread', { contribution_id: first.body.id })
    assert.equal(thread.body.root.content, 'original')
  })

  test('client_id is namespaced per participant', async () => {
    const a = await t.join()
    const b = await t.join()
    const x = await post(t, a.key, { client_id: 'shared-name', content: 'from a' })
    const y = await post(t, b.key, { client_id: 'shared-name', content: 'from b' })
    assert.equal(y.status, 200)
    assert.notEqual(x.body.id, y.body.id)
  })

  test('50 concurrent identical retries create exactly one post', async () => {
    const me = await t.join()
    t.clock.advance(31)
    const before = await count()
    const fields = { key: me.key, room: 'connection', kind: 'conversation', content: 'burst', client_id: 'burst-1' }
    const replies = await Promise.all(
      Array.from({ length: 50 }, () => t.act<{ id: number; duplicate: boolean }>('contribute', fields)),
    )
    assert.ok(
      replies.every((r) => r.status === 200),
      JSON.stringify(replies.find((r) => r.status !== 200)?.body),
    )
    assert.equal(new Set(replies.map((r) => r.body.id)).size, 1)
    assert.equal(replies.filter((r) => !r.body.duplicate).length, 1)
    assert.equal(await count(), before + 1)
  })

  test('the 30-second rule holds for replies and for a reply after a root', async () => {
    const me = await t.join()
    const other = await t.join()
    const root = await post(t, other.key)
    assert.equal((await post(t, me.key, { reply_to: root.body.id })).status, 200)
    t.clock.advance(10)
    const fields = { key: me.key, room: 'connection', kind: 'conversation', content: 'again', reply_to: root.body.id }
    const reply = await t.act<ErrorReply>('contribute', { ...fields, client_id: 'reply-soon' })
    assert.equal(reply.status, 429, 'a reply inside 30 s is refused like any post')
    assert.equal(reply.body.error.code, 'rate_limited')
    assert.equal((await post(t, me.key)).status, 200)
    t.clock.advance(1)
    const afterRoot = await t.act<ErrorReply>('contribute', { ...fields, client_id: 'reply-after-root' })
    assert.equal(afterRoot.status, 429, 'a reply inside 30 s of a root is refused')
  })

  test('a second contribution within 30 seconds answers 429 with Retry-After >= 60; after 30 s it is accepted', async () => {
    const me = await t.join()
    assert.equal((await post(t, me.key)).status, 200)
    t.clock.advance(29)
    const refused = await t.act<ErrorReply>('contribute', {
      key: me.key,
      room: 'connection',
      kind: 'conversation',
      content: 'too soon',
      client_id: 'soon',
    })
    assert.equal(refused.status, 429)
    assert.equal(refused.body.error.code, 'rate_limited')
    assert.ok(Number(refused.headers.get('retry-after')) >= 60)
    assert.ok((refused.body.retry_after_seconds ?? 0) >= 60)
    t.clock.advance(1)
    const accepted = await t.act('contribute', {
      key: me.key,
      room: 'connection',
      kind: 'conversation',
      content: 'now',
      client_id: 'soon',
    })
    assert.equal(accepted.status, 200, 'the refused attempt was not charged and its client_id is free')
  })

  test('a post whose clock reading is older than the last accepted post: refused inside 30 s, accepted with the spacing off', async () => {
    // Two posts of one participant at once: the one that started first can get the participant's row
    // lock second, and then finds a last post later than its own reading of the clock.
    const send = (server: TestServer, key: string, clientId: string) =>
      server.act('contribute', {
        key,
        room: 'connection',
        kind: 'conversation',
        content: clientId,
        client_id: clientId,
      })
    const me = await t.join()
    t.clock.advance(31)
    assert.equal((await send(t, me.key, 'later')).status, 200)
    t.clock.advance(-0.005)
    assert.equal((await send(t, me.key, 'earlier')).status, 429, 'no time apart is inside 30 s')
    const lifted = await startServer({ config: { contributionIntervalSeconds: 0 } })
    try {
      const agent = await lifted.join()
      assert.equal((await send(lifted, agent.key, 'later')).status, 200)
      lifted.clock.advance(-0.005)
      assert.equal((await send(lifted, agent.key, 'earlier')).status, 200, 'with the spacing off, none is enough')
    } finally {
      await lifted.close()
    }
  })

  test('concurrent distinct posts from one participant: exactly one is accepted', async () => {
    const me = await t.join()
    t.clock.advance(31)
    const replies = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        t.act('contribute', {
          key: me.key,
          room: 'connection',
          kind: 'conversation',
          content: `c${i}`,
          client_id: `par-${i}`,
        }),
      ),
    )
    assert.equal(replies.filter((r) => r.status === 200).length, 1)
    assert.equal(replies.filter((r) => r.status === 429).length, 9)
  })

  test('replies: reply_to must exist; a reply joins the conversation of its parent', async () => {
    const a = await t.join()
    const b = await t.join()
    const root = await post(t, a.key, { content: 'root' })
    const reply = await post(t, b.key, { content: 'reply', reply_to: root.body.id })
    const nested = await post(t, a.key, { content: 'nested', reply_to: reply.body.id })
    assert.equal(nested.status, 200)
    const thread = await t.view<{ thread_id: number; contributions: Array<{ id: number }> }>('thread', {
      contribution_id: nested.body.id,
    })
    assert.equal(thread.body.thread_id, root.body.id)
    assert.deepEqual(
      thread.body.contributions.map((c) => c.id),
      [root.body.id, reply.body.id, nested.body.id],
    )
    // Refused before anything is written: no post, no usage, no activity (the insert itself looks the parent up).
    const stored = await storedState(t.server.database.db)
    const missing = await post(t, a.key, { reply_to: 999999 })
    assert.equal(missing.status, 400)
    assert.equal((missing.body as unknown as ErrorReply).error.code, 'not_found')
    assert.equal(await storedState(t.server.database.db), stored)
  })

  test('bounds and strictness: each violation is 400 and nothing is stored', async () => {
    const me = await t.join()
    const before = await count()
    const base = { key: me.key, room: 'connection', kind: 'conversation', content: 'ok', client_id: 'bounds' }
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['content over 4000', { content: 'x'.repeat(4001) }, '/content'],
      ['empty content after trimming', { content: '   \n ' }, '/content'],
      ['client_id over 100', { client_id: 'c'.repeat(101) }, '/client_id'],
      ['unknown room', { room: 'kitchen' }, '/room'],
      ['unknown kind', { kind: 'rant' }, '/kind'],
      ['extra property', { mood: 'happy' }, '/mood'],
      ['reply_to zero', { reply_to: 0 }, '/reply_to'],
      ['reply_to as text', { reply_to: '5' }, '/reply_to'],
      ['content as number', { content: 5 }, '/content'],
    ]
    for (const [label, change, path] of cases) {
      t.clock.advance(31)
      const stored = await storedState(t.server.database.db)
      const reply = await t.act<ErrorReply>('contribute', { ...base, ...change })
      assert.equal(reply.status, 400, label)
      assert.equal(reply.body.error.code, 'invalid_request', label)
      assert.ok(
        reply.body.error.details?.some((d) => d.path === path),
        `${label}: ${JSON.stringify(reply.body)}`,
      )
      assert.equal(await storedState(t.server.database.db), stored, label)
    }
    for (const missing of ['room', 'kind', 'content', 'client_id']) {
      const fields: Record<string, unknown> = { ...base }
      delete fields[missing]
      const reply = await t.act<ErrorReply>('contribute', fields)
      assert.equal(reply.status, 400, missing)
    }
    assert.equal(await count(), before)
    t.clock.advance(31)
    assert.equal(
      (await t.act('contribute', { ...base, content: 'y'.repeat(4000) })).status,
      200,
      'exactly 4000 is fine',
    )
  })

  test('the content limit counts characters, not bytes', async () => {
    const me = await t.join()
    const reply = await post(t, me.key, { content: 'é'.repeat(4000) })
    assert.equal(reply.status, 200)
    const history = await t.view<Timeline>('history', { after: reply.body.id - 1, limit: 1 })
    assert.equal(history.body.timeline[0]?.content?.length, 4000)
  })
})
