import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { twoInstances } from '../support/harness.ts'
import { op } from '../support/operator.ts'
import { type ErrorReply } from '../support/errors.ts'

describe('two instances side by side on one database behave as one service', () => {
  const instances = twoInstances({ registrationRatePerMinute: 4, registrationCapacity: 6 })

  test('registration rate and capacity are shared', async () => {
    const { a, b } = instances()
    const { clock } = a
    clock.set('2026-04-01T08:00:01Z')
    const first = await Promise.all(
      [a, b, a, b, a, b].map((s, i) => s.act<ErrorReply>('join', { name: `p${i}`, model: 'm' })),
    )
    assert.equal(first.filter((r) => r.status === 200).length, 4, 'one budget of 4 per minute across both')
    // Both refusals are for the rate, not the capacity: 6 units, 4 taken.
    const refused = first.filter((r) => r.status !== 200)
    assert.deepEqual(
      refused.map((r) => [r.status, r.body.error.code]),
      [
        [429, 'rate_limited'],
        [429, 'rate_limited'],
      ],
    )
    clock.advance(60)
    const second = await Promise.all(
      [a, b, a, b].map((s, i) => s.act<ErrorReply>('join', { name: `q${i}`, model: 'm' })),
    )
    assert.equal(second.filter((r) => r.status === 200).length, 2, 'capacity 6 across both')
    assert.ok(second.filter((r) => r.status === 429).every((r) => r.body.error.code === 'registration_closed'))
  })
})

describe('two instances: contributions', () => {
  const instances = twoInstances()

  test('a key made on one instance works on the other; retries split across instances create one post; a second post inside 30 s is refused by either', async () => {
    const { a, b } = instances()
    const { clock } = a
    const me = await a.join()
    clock.advance(31)
    const fields = { key: me.key, room: 'connection', kind: 'conversation', content: 'split', client_id: 'split-1' }
    const replies = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        (i % 2 ? a : b).act<{ id: number; duplicate: boolean }>('contribute', fields),
      ),
    )
    assert.ok(replies.every((r) => r.status === 200))
    assert.equal(new Set(replies.map((r) => r.body.id)).size, 1)
    assert.equal(replies.filter((r) => !r.body.duplicate).length, 1)
    const soon = await b.act<ErrorReply>('contribute', { ...fields, client_id: 'split-2', content: 'again' })
    assert.equal(soon.status, 429)
  })

  test('ids stay unique and increasing when both instances accept posts at once', async () => {
    const { a, b } = instances()
    const { clock } = a
    const people = await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 ? a : b).join(`w${i}`, 'm')))
    clock.advance(31)
    const replies = await Promise.all(
      people.map((p, i) =>
        (i % 2 ? a : b).act<{ id: number }>('contribute', {
          key: p.key,
          room: 'connection',
          kind: 'conversation',
          content: `w${i}`,
          client_id: 'w',
        }),
      ),
    )
    assert.ok(replies.every((r) => r.status === 200))
    const ids = replies.map((r) => r.body.id)
    assert.equal(new Set(ids).size, 10)
    const history = await a.view<{ timeline: Array<{ id: number }> }>('history', { limit: 200 })
    const listed = history.body.timeline.map((c) => c.id)
    assert.deepEqual(
      listed,
      [...listed].sort((x, y) => x - y),
    )
    for (const id of ids) assert.ok(listed.includes(id))
  })

  test('a page cached on one instance reflects posts and quarantines made on the other at once', async () => {
    const { a, b } = instances()
    const { clock } = a
    const me = await b.join('Cache', 'm')
    const first = await (async () => {
      clock.advance(31)
      return b.act<{ id: number }>('contribute', {
        key: me.key,
        room: 'wonder',
        kind: 'question',
        content: 'cached?',
        client_id: 'c1',
      })
    })()
    const read = () =>
      a.view<{ timeline: Array<{ id: number; content: string | null }> }>('history', { room: 'wonder' })
    assert.equal((await read()).body.timeline.at(-1)?.content, 'cached?')
    assert.equal((await read()).body.timeline.at(-1)?.content, 'cached?', 'served again, from the cache')

    clock.advance(31)
    const second = await b.act<{ id: number }>('contribute', {
      key: me.key,
      room: 'wonder',
      kind: 'question',
      content: 'new',
      client_id: 'c2',
    })
    assert.equal((await read()).body.timeline.at(-1)?.id, second.body.id, 'a post on B shows on A')

    const masked = await op(b, 'quarantine', {
      reason_code: 'other',
      target_type: 'contribution',
      target_id: first.body.id,
      reason: 'test',
    })
    assert.equal(masked.status, 200)
    const after = await read()
    assert.equal(after.body.timeline.find((c) => c.id === first.body.id)?.content, null, 'a quarantine on B masks on A')
  })
})
