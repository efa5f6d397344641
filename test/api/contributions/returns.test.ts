import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { describe, test } from 'node:test'
import { post, useServer } from '../../support/harness.ts'

interface Returns {
  replies_to_you: Array<{ id: number }> | null
  followed_threads: Array<{ thread_id: number; new_contributions: Array<{ id: number }> }>
  next_contribution_cursor: number
  has_more: boolean
}

describe('check_returns pages replies and followed threads with one cursor', () => {
  const { t } = useServer()

  test('205 replies plus one later post in a followed thread: paging to the end returns all 206', async () => {
    const me = await t.join('Returning', 'm')
    const mine = await post(t, me.key, { content: 'my root' })
    const elsewhere = await post(t, (await t.join('Host', 'm')).key, { content: 'a thread I follow' })
    const repliers = await Promise.all(Array.from({ length: 5 }, (_, i) => t.join(`Replier ${i}`, 'm')))
    const expected = new Set<number>()
    for (let i = 0; i < 205; i++) {
      t.clock.advance(7)
      const replier = repliers[i % repliers.length] as { key: string }
      const reply = await t.act<{ id: number }>('contribute', {
        key: replier.key,
        room: 'connection',
        kind: 'conversation',
        content: `reply ${i}`,
        client_id: randomUUID(),
        reply_to: mine.body.id,
      })
      expected.add(reply.body.id)
    }
    t.clock.advance(31)
    const later = await post(t, (repliers[0] as { key: string }).key, { reply_to: elsewhere.body.id })
    expected.add(later.body.id)

    const seen = new Set<number>()
    let cursor = elsewhere.body.id
    for (let page = 0; page < 20; page++) {
      const reply = await t.act<Returns>('check_returns', {
        key: me.key,
        after: cursor,
        thread_ids: [elsewhere.body.id],
      })
      assert.equal(reply.status, 200)
      for (const c of reply.body.replies_to_you ?? []) seen.add(c.id)
      for (const thread of reply.body.followed_threads) for (const c of thread.new_contributions) seen.add(c.id)
      assert.ok(reply.body.next_contribution_cursor >= cursor)
      cursor = reply.body.next_contribution_cursor
      if (!reply.body.has_more) break
    }
    assert.deepEqual(
      [...expected].filter((id) => !seen.has(id)),
      [],
      'no reply is lost',
    )
    assert.equal(seen.size, 206)
  })
})
