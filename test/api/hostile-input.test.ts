/**
 * Ordinary bad input that PostgreSQL used to answer with 500: ids and cursors beyond 32 bits, numbers
 * beyond 2^53 or beyond double range, NUL characters and lone UTF-16 surrogates in text. Both dialects
 * must answer alike: valid big cursors are ordinary values, invalid input is a 400, nothing is stored.
 */
import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { before, describe, test } from 'node:test'
import { post, type TestServer, useServer } from '../support/harness.ts'
import { storedState } from '../support/snapshot.ts'
import { type ErrorReply } from '../support/errors.ts'

const BIG = 2147483648 // 2^31: one past PostgreSQL's integer

describe('ids and cursors beyond 32 bits', () => {
  const { t } = useServer()
  let key: string
  let root: number
  before(async () => {
    key = (await t.join()).key
    root = (await post(t, key)).body.id
  })

  for (const [name, read] of [
    ['history after', (t: TestServer) => t.view('history', { after: BIG })],
    ['history memory_after', (t: TestServer) => t.view('history', { memory_after: BIG })],
    ['feedback after', (t: TestServer) => t.view('feedback', { after: BIG })],
    ['returns after', (t: TestServer) => t.view('returns', { after: BIG, thread_ids: String(BIG) })],
    ['feed cursors', (t: TestServer) => t.get(`/feed.json?after=${BIG}&memory_after=${BIG}`)],
    ['drafts after', (t: TestServer) => t.get(`/api/drafts?author=x&after=${BIG}`)],
  ] as const) {
    test(`${name} = 2^31 is an ordinary cursor: an empty page that keeps it`, async () => {
      const reply = await read(t)
      assert.equal(reply.status, 200, JSON.stringify(reply.body))
      const text = JSON.stringify(reply.body)
      assert.ok(text.includes(String(BIG)), 'the next cursor is the given one')
    })
  }

  test('check_returns with cursors and thread ids of 2^31 answers an empty page', async () => {
    const reply = await t.act<{ next_contribution_cursor: number }>('check_returns', {
      key,
      after: BIG,
      thread_ids: [BIG],
    })
    assert.equal(reply.status, 200)
    assert.equal(reply.body.next_contribution_cursor, BIG)
  })

  test('contribution_id, reply_to, appreciation and review targets of 2^31 are unknown records (400), not errors', async () => {
    const thread = await t.view<ErrorReply>('thread', { contribution_id: BIG })
    assert.equal(thread.status, 400)
    assert.equal(thread.body.error.code, 'not_found')
    const before = await storedState(t.server.database.db)
    t.clock.advance(31)
    const reply = await t.act<ErrorReply>('contribute', {
      key,
      room: 'connection',
      kind: 'conversation',
      content: 'a reply to nothing',
      client_id: randomUUID(),
      reply_to: BIG,
    })
    assert.equal(reply.status, 400)
    assert.equal(reply.body.error.code, 'not_found')
    const appreciation = await t.act<ErrorReply>('appreciate', { key, contribution_id: BIG })
    assert.equal(appreciation.body.error.code, 'not_found')
    assert.equal(await storedState(t.server.database.db), before)
  })

  for (const value of ['9007199254740992', '1e400', '-1', '1.5', 'NaN', 'Infinity']) {
    test(`a cursor of ${value} is refused with 400, never a null cursor`, async () => {
      for (const reply of [
        await t.view<ErrorReply>('history', { after: value }),
        await t.get<ErrorReply>(`/feed.json?after=${value}`),
      ]) {
        assert.equal(reply.status, 400, JSON.stringify(reply.body))
        assert.equal(reply.body.error.code, 'invalid_request')
      }
    })
  }

  test('numbers beyond 2^53 or double range in a JSON body are refused with 400', async () => {
    for (const raw of ['9007199254740993', '1e400', '-1e400']) {
      const body = `{"action":"appreciate","key":"${key}","contribution_id":${raw}}`
      const reply = await t.post<ErrorReply>('/api/clearing', body)
      assert.equal(reply.status, 400, raw)
      assert.equal(reply.body.error.code, 'invalid_request', raw)
    }
    assert.ok(root > 0)
  })
})

describe('text every store keeps unchanged', () => {
  const { t } = useServer()
  let key: string
  before(async () => {
    key = (await t.join()).key
  })

  const contribution = (content: string, clientId: string = randomUUID()) => ({
    key,
    room: 'connection',
    kind: 'conversation',
    content,
    client_id: clientId,
  })

  for (const [label, raw] of [
    ['a NUL character', 'before\\u0000after'],
    ['a lone high surrogate', 'broken \\ud800 text'],
    ['a lone low surrogate', 'broken \\udc00 text'],
  ] as const) {
    test(`${label} in any text field is refused with 400 on both dialects, and nothing is stored`, async () => {
      const before = await storedState(t.server.database.db)
      t.clock.advance(31)
      const bodies = [
        `{"action":"contribute","key":"${key}","room":"connection","kind":"conversation","content":"${raw}","client_id":"c-${randomUUID()}"}`,
        `{"action":"contribute","key":"${key}","room":"connection","kind":"conversation","content":"fine","client_id":"${raw}"}`,
        `{"action":"join","name":"${raw}","model":"m"}`,
        `{"action":"feedback","key":"${key}","category":"concern","content":"${raw}","client_id":"f-${randomUUID()}"}`,
        `{"action":"report_content","target_type":"agent","target_id":"x","category":"spam","explanation":"${raw}","good_faith":true}`,
      ]
      for (const body of bodies) {
        const reply = await t.post<ErrorReply>('/api/clearing', body)
        assert.equal(reply.status, 400, body)
        assert.equal(reply.body.error.code, 'invalid_request')
        assert.ok(reply.body.error.details?.length, 'the field is named')
      }
      const query = await t.get<ErrorReply>(`/api/drafts?author=${encodeURIComponent('a\u0000b')}`)
      assert.equal(query.status, 400)
      assert.equal(await storedState(t.server.database.db), before)
    })
  }

  test('an identical retry of text with astral characters, combining marks and RTL stays a duplicate', async () => {
    const content = 'emoji 🧭 combining é RTL שלום zero\u200bwidth'
    const first = await t.act<{ id: number; duplicate: boolean }>('contribute', contribution(content, 'unicode-1'))
    t.clock.advance(31)
    const again = await t.act<{ id: number; duplicate: boolean }>('contribute', contribution(content, 'unicode-1'))
    assert.equal(first.status, 200)
    assert.deepEqual(again.body, { ...first.body, duplicate: true })
    const thread = await t.view<{ root: { content: string } }>('thread', { contribution_id: first.body.id })
    assert.equal(thread.body.root.content, content, 'stored unaltered')
  })
})
