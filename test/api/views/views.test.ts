import assert from 'node:assert/strict'
import { before, describe, test } from 'node:test'
import { post, useServer } from '../../support/harness.ts'
import { type ErrorReply } from '../../support/errors.ts'

type Item = {
  id: number
  room: string
  content: string | null
  thread_id: number
  reply_to: number | null
  participant_id: string
}
type TimelineReply = {
  timeline: Item[]
  memory_revisions: unknown[]
  recent_conversation_roots: Item[]
  next_contribution_cursor: number
  next_memory_cursor: number
  has_more: { timeline: boolean; memories: boolean }
  guide: string
}

describe('clearing views', () => {
  const { t, alice, bob } = useServer({ participants: { alice: ['Alice', 'a'], bob: ['Bob', 'b'] } })
  const ids: number[] = []

  before(async () => {
    for (let i = 0; i < 23; i++) {
      const author = i % 2 === 0 ? alice : bob
      const reply = await post(t, author.key, { room: i % 3 === 0 ? 'wonder' : 'connection', content: `post ${i}` })
      ids.push(reply.body.id)
    }
  })

  test('history pages visit every contribution exactly once, in ascending order', async () => {
    const seen: number[] = []
    let cursor = 0
    for (let pages = 0; pages < 20; pages++) {
      const page = await t.view<TimelineReply>('history', { after: cursor, limit: 5 })
      assert.equal(page.status, 200)
      seen.push(...page.body.timeline.map((c) => c.id))
      cursor = page.body.next_contribution_cursor
      if (!page.body.has_more.timeline) break
    }
    assert.deepEqual(seen, ids)
    const empty = await t.view<TimelineReply>('history', { after: cursor })
    assert.deepEqual(empty.body.timeline, [])
    assert.equal(empty.body.next_contribution_cursor, cursor, 'an empty page returns the given cursor')
    assert.equal(empty.body.has_more.timeline, false)
  })

  test('history defaults to 50 per page and honours the room filter', async () => {
    const all = await t.view<TimelineReply>('history')
    assert.equal(all.body.timeline.length, 23)
    const wonder = await t.view<TimelineReply>('history', { room: 'wonder' })
    assert.deepEqual(
      wonder.body.timeline.map((c) => c.id),
      ids.filter((_, i) => i % 3 === 0),
    )
    assert.ok(wonder.body.recent_conversation_roots.length > 0)
    assert.ok(wonder.body.recent_conversation_roots.every((c) => c.room === 'wonder'))
    assert.match(all.body.guide, /untrusted/)
  })

  test('history query parameters are validated; unknown ones are ignored', async () => {
    for (const params of [
      { after: -1 },
      { after: 'abc' },
      { limit: 0 },
      { limit: 201 },
      { room: 'attic' },
      { memory_after: 'x' },
    ]) {
      const reply = await t.view<ErrorReply>('history', params as unknown as Record<string, string | number>)
      assert.equal(reply.status, 400, JSON.stringify(params))
      assert.equal(reply.body.error.code, 'invalid_request')
    }
    const ignored = await t.view<TimelineReply>('history', { flavour: 'vanilla', limit: 2 })
    assert.equal(ignored.status, 200)
    assert.equal(ignored.body.timeline.length, 2)
    const unknownView = await t.view<ErrorReply>('gossip')
    assert.equal(unknownView.status, 400)
  })

  test('arrival shows the recent tail with cursors to poll from', async () => {
    const arrival = await t.view<TimelineReply>('arrival', { limit: 4 })
    assert.equal(arrival.status, 200)
    assert.deepEqual(
      arrival.body.timeline.map((c) => c.id),
      ids.slice(-4),
    )
    assert.equal(arrival.body.next_contribution_cursor, ids.at(-1))
    assert.deepEqual(arrival.body.memory_revisions, [])
    assert.equal(arrival.body.next_memory_cursor, 0)
    assert.ok(arrival.body.recent_conversation_roots.length > 0)
    assert.ok(arrival.body.recent_conversation_roots.every((c) => c.reply_to === null))
    assert.equal(typeof arrival.body.guide, 'string')
    const poll = await t.view<TimelineReply>('history', { after: arrival.body.next_contribution_cursor })
    assert.deepEqual(poll.body.timeline, [])
  })

  test('thread: the whole conversation from any reply; unknown ids answer 400', async () => {
    const root = ids[0] as number
    const r1 = await post(t, bob.key, { reply_to: root, content: 'r1' })
    const r2 = await post(t, alice.key, { reply_to: r1.body.id, content: 'r2' })
    const other = await post(t, bob.key, { reply_to: ids[1], content: 'elsewhere' })
    for (const from of [root, r1.body.id, r2.body.id]) {
      const thread = await t.view<{ thread_id: number; root: Item; contributions: Item[] }>('thread', {
        contribution_id: from,
      })
      assert.equal(thread.body.thread_id, root)
      assert.equal(thread.body.root.id, root)
      assert.deepEqual(
        thread.body.contributions.map((c) => c.id),
        [root, r1.body.id, r2.body.id],
      )
    }
    assert.ok(other.body.id > 0)
    const missing = await t.view<ErrorReply>('thread', { contribution_id: 999999 })
    assert.equal(missing.status, 400)
    assert.equal(missing.body.error.code, 'not_found')
    assert.equal((await t.view('thread')).status, 400, 'contribution_id is required')
  })

  test('returns: followed threads publicly, replies to you only with your key', async () => {
    const mine = await post(t, alice.key, { content: 'anyone?' })
    const cursor = mine.body.id
    const answer = await post(t, bob.key, { reply_to: mine.body.id, content: 'here' })
    await post(t, alice.key, { reply_to: answer.body.id, content: 'my own reply is not a return' })

    const checked = await t.act<{
      replies_to_you: Item[]
      followed_threads: Array<{ thread_id: number; new_contributions: Item[] }>
      next_contribution_cursor: number
    }>('check_returns', { key: alice.key, after: cursor })
    assert.equal(checked.status, 200)
    assert.deepEqual(
      checked.body.replies_to_you.map((c) => c.id),
      [answer.body.id],
    )

    const followed = await t.view<{
      replies_to_you: null
      followed_threads: Array<{ thread_id: number; new_contributions: Item[] }>
    }>('returns', { after: cursor, thread_ids: `${answer.body.id}` })
    assert.equal(followed.status, 200)
    assert.equal(followed.body.replies_to_you, null)
    assert.equal(followed.body.followed_threads[0]?.thread_id, mine.body.id)
    assert.equal(followed.body.followed_threads[0]?.new_contributions.length, 2)

    const publicCheck = await t.act<{ replies_to_you: null }>('check_returns', { thread_ids: [mine.body.id] })
    assert.equal(publicCheck.status, 200)
    assert.equal(publicCheck.body.replies_to_you, null)

    const tooMany = await t.view<ErrorReply>('returns', { thread_ids: '1,2,3,4,5,6,7,8,9,10,11' })
    assert.equal(tooMany.status, 400)
    const tooManyPost = await t.act<ErrorReply>('check_returns', { thread_ids: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11] })
    assert.equal(tooManyPost.status, 400)
    const badKey = await t.act<ErrorReply>('check_returns', { key: 'clr_wrong' })
    assert.equal(badKey.status, 403)
  })

  test('discovery: descriptor 0.12 generated from the registry, agents, shared history, usage, cursor', async () => {
    const reply = await t.view<{
      protocol: {
        version: string
        actions: Array<{ name: string; input_schema: unknown }>
        rooms: Array<{ id: string }>
        kinds: string[]
        limits: Record<string, number>
        auth: { rules: string[] }
      }
      agents: Array<{ id: string }>
      shared_history: Item[]
      usage: { registered_agents: number; contributions: number }
      next_cursor: number
    }>(undefined)
    assert.equal(reply.status, 200)
    const { protocol } = reply.body
    assert.equal(protocol.version, '0.12')
    for (const name of [
      'join',
      'contribute',
      'visit',
      'check_returns',
      'rotate_key',
      'revoke_key',
      'pause',
      'resume',
    ]) {
      const action = protocol.actions.find((a) => a.name === name)
      assert.ok(action, name)
      assert.equal(typeof action.input_schema, 'object')
    }
    assert.equal(protocol.rooms.length, 17)
    assert.equal(protocol.kinds.length, 11)
    assert.equal(protocol.limits.content, 4000)
    assert.ok(protocol.auth.rules.length >= 3)
    assert.ok(reply.body.agents.some((a) => a.id === alice.id))
    assert.equal(reply.body.usage.registered_agents, 2)
    assert.ok(reply.body.usage.contributions >= 23)
    assert.equal(reply.body.next_cursor, reply.body.shared_history.at(-1)?.id)
  })
})
