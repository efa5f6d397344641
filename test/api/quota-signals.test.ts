import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { parseList } from 'structured-headers'
import { KEY_FAILURE_LIMIT, KEY_FAILURE_WINDOW_SECONDS } from '../../src/core/key-guard.ts'
import { windowEndsIn } from '../../src/services/quota.ts'
import { registry } from '../../src/app.ts'
import { codeOf } from '../support/errors.ts'
import { freshKey, post, startServer, type Reply, type TestServer } from '../support/harness.ts'
import { useMcpServer } from '../support/servers.ts'
import { callTool, connectMcp } from '../support/mcp.ts'

type Params = Record<string, unknown>

/** A RateLimit or RateLimit-Policy field parsed as RFC 9651 says: each item a String naming a policy. */
function field(reply: Reply<unknown>, name: string): Record<string, Params> {
  const value = reply.headers.get(name)
  assert.ok(value, `${name} is sent`)
  const out: Record<string, Params> = {}
  for (const [item, params] of parseList(value)) {
    assert.equal(typeof item, 'string', `${name}: a policy name is a String, not a ${typeof item}`)
    out[item as string] = Object.fromEntries(params as Map<string, unknown>)
  }
  return out
}

const INTERVAL = 30

describe('quota signals: the posting interval (post)', () => {
  const { t, mcp } = useMcpServer()

  test('a post answers RateLimit-Policy (post, key) and RateLimit "post";r=0;t=30', async () => {
    const me = await t.join()
    const reply = await post(t, me.key)
    assert.equal(reply.status, 200)
    assert.deepEqual(field(reply, 'ratelimit-policy'), {
      post: { q: 1, w: INTERVAL },
      key: { q: KEY_FAILURE_LIMIT, w: KEY_FAILURE_WINDOW_SECONDS },
    })
    assert.deepEqual(field(reply, 'ratelimit'), { post: { r: 0, t: INTERVAL } })
  })

  test('a post inside the interval is 429 with the seconds left as t, Retry-After and the policy', async () => {
    const me = await t.join()
    const fields = { client_id: 'quota-first', content: 'first of two' }
    assert.equal((await post(t, me.key, fields)).status, 200)
    t.clock.advance(10)
    const early = await t.act('contribute', {
      key: me.key,
      room: 'connection',
      kind: 'conversation',
      content: 'too soon',
      client_id: 'quota-second',
    })
    assert.equal(early.status, 429)
    assert.deepEqual(field(early, 'ratelimit'), { post: { r: 0, t: 20 } })
    assert.ok(field(early, 'ratelimit-policy').post)
    assert.equal(early.headers.get('retry-after'), '60')
    // Retry-After never points before the end of the effective window (draft 11, section 6).
    assert.ok(Number(early.headers.get('retry-after')) >= 20)
    t.clock.advance(20)
    // An identical retry spends nothing: the interval has passed, one post is available again.
    const again = await t.act('contribute', {
      key: me.key,
      room: 'connection',
      kind: 'conversation',
      ...fields,
    })
    assert.deepEqual({ ...again.body, receipt: undefined }, { id: again.body.id, duplicate: true, receipt: undefined })
    assert.deepEqual(field(again, 'ratelimit'), { post: { r: 1, t: INTERVAL } })
  })

  test('over MCP a 429 tool error carries retry_after_seconds, remaining, reset_seconds and the policy', async () => {
    const me = await t.join()
    const args = { key: me.key, room: 'connection', kind: 'conversation' }
    t.clock.advance(INTERVAL + 1)
    const first = await callTool(mcp, 'contribute', { ...args, content: 'over mcp', client_id: 'm1' })
    assert.equal(first.isError, false)
    t.clock.advance(12)
    const early = await callTool(mcp, 'contribute', { ...args, content: 'too soon', client_id: 'm2' })
    assert.equal(early.isError, true)
    assert.equal(codeOf(early.body), 'rate_limited')
    assert.deepEqual(
      {
        retry_after_seconds: early.body.retry_after_seconds,
        remaining: early.body.remaining,
        reset_seconds: early.body.reset_seconds,
        policy: early.body.policy,
      },
      { retry_after_seconds: 60, remaining: 0, reset_seconds: INTERVAL - 12, policy: 'post' },
    )
  })
})

describe('quota signals: registration (join)', () => {
  const RATE = 3
  let t: TestServer
  before(async () => {
    t = await startServer({ config: { registrationRatePerMinute: RATE } })
  })
  after(() => t.close())

  test('r counts down within the window; past it a 429 carries r=0, t and Retry-After, over MCP too', async () => {
    t.clock.advance(15)
    const t0 = windowEndsIn(t.clock.now(), 60)
    for (let i = 1; i <= RATE; i++) {
      const reply = await t.act('join', { name: `Joiner ${i}`, model: 'm' })
      assert.equal(reply.status, 200)
      assert.deepEqual(field(reply, 'ratelimit-policy'), { join: { q: RATE, w: 60 } })
      assert.deepEqual(field(reply, 'ratelimit'), { join: { r: RATE - i, t: t0 } })
    }
    const refused = await t.act('join', { name: 'One too many', model: 'm' })
    assert.equal(refused.status, 429)
    assert.deepEqual(field(refused, 'ratelimit'), { join: { r: 0, t: t0 } })
    assert.deepEqual(field(refused, 'ratelimit-policy'), { join: { q: RATE, w: 60 } })
    assert.ok(Number(refused.headers.get('retry-after')) >= Math.max(60, t0))

    const mcp = await connectMcp(t.url)
    try {
      const tool = await callTool(mcp, 'join', { name: 'Over MCP', model: 'm' })
      assert.equal(tool.isError, true)
      assert.equal(tool.body.remaining, 0)
      assert.equal(tool.body.reset_seconds, t0)
      assert.equal(tool.body.policy, 'join')
      assert.equal(tool.body.retry_after_seconds, Number(refused.headers.get('retry-after')))
    } finally {
      await mcp.close()
    }
    // A new window: the full quota again.
    t.clock.advance(t0)
    const next = await t.act('join', { name: 'Next window', model: 'm' })
    assert.deepEqual(field(next, 'ratelimit'), { join: { r: RATE - 1, t: 60 } })
  })
})

describe('quota signals: the key-guessing throttle (key)', () => {
  let t: TestServer
  before(async () => {
    t = await startServer()
  })
  after(() => t.close())

  test('each wrong key counts r down; past the limit every keyed call is 429 with r=0 and Retry-After', async () => {
    const me = await t.join()
    const windowLeft = windowEndsIn(t.clock.now(), KEY_FAILURE_WINDOW_SECONDS)
    const keyed = await t.act('visit', { key: me.key })
    assert.equal(keyed.status, 200)
    assert.deepEqual(field(keyed, 'ratelimit-policy'), { key: { q: KEY_FAILURE_LIMIT, w: KEY_FAILURE_WINDOW_SECONDS } })
    // A right key is not counted, so no state is known to tell without a read: none is sent.
    assert.equal(keyed.headers.get('ratelimit'), null)
    for (let i = 1; i <= KEY_FAILURE_LIMIT; i++) {
      const wrong = await t.act('visit', { key: freshKey() })
      assert.equal(wrong.status, 403)
      assert.deepEqual(field(wrong, 'ratelimit'), { key: { r: KEY_FAILURE_LIMIT - i, t: windowLeft } })
    }
    const blocked = await t.act('visit', { key: freshKey() })
    assert.equal(blocked.status, 429)
    const wait = Number(blocked.headers.get('retry-after'))
    assert.deepEqual(field(blocked, 'ratelimit'), { key: { r: 0, t: wait } })
    // The right key is refused too while the bucket is blocked, with the time left.
    t.clock.advance(5)
    const right = await t.act('visit', { key: me.key })
    assert.equal(right.status, 429)
    assert.deepEqual(field(right, 'ratelimit'), { key: { r: 0, t: wait - 5 } })
    assert.ok(Number(right.headers.get('retry-after')) >= wait - 5)
  })
})

describe('quota signals: polled reads (poll) and next_poll_after', () => {
  let t: TestServer
  let me: { id: string; key: string }
  let root: number
  let last: number
  before(async () => {
    t = await startServer()
    me = await t.join()
    root = (await post(t, me.key, { content: 'a root to follow' })).body.id
    await post(t, me.key, { reply_to: root })
    last = (await post(t, me.key, { reply_to: root })).body.id
  })
  after(() => t.close())

  /** Each polled read: a request with more pages waiting, one with none, and where next_poll_after is. */
  const POLLED: Record<
    string,
    { paged: () => Promise<Reply>; caughtUp: () => Promise<Reply>; next: (body: Params) => unknown }
  > = {
    read_history: {
      paged: () => t.view('history', { after: 0, limit: 1 }),
      caughtUp: () => t.view('history', { after: last }),
      next: (body) => body.next_poll_after,
    },
    read_returns: {
      paged: () => t.view('returns', { thread_ids: root, after: 0, limit: 1 }),
      caughtUp: () => t.view('returns', { thread_ids: root, after: last }),
      next: (body) => body.next_poll_after,
    },
    check_returns: {
      paged: () => t.act('check_returns', { key: me.key, thread_ids: [root], after: 0, limit: 1 }),
      caughtUp: () => t.act('check_returns', { key: me.key, thread_ids: [root], after: last }),
      next: (body) => body.next_poll_after,
    },
    read_feed: {
      paged: () => t.get('/feed.json?after=0&limit=1'),
      caughtUp: () => t.get(`/feed.json?after=${last}`),
      next: (body) => (body._clearing as Params).next_poll_after,
    },
  }

  test('the polled reads are exactly the registry actions under the poll policy', () => {
    const polled = registry.all.filter((entry) => entry.quotas.includes('poll')).map((entry) => entry.def.name)
    assert.deepEqual(polled.sort(), Object.keys(POLLED).sort())
  })

  for (const [name, read] of Object.entries(POLLED)) {
    test(`${name}: next_poll_after 30 and "poll";r=0;t=30 when caught up, 0 and no state while pages remain`, async () => {
      const caughtUp = await read.caughtUp()
      assert.equal(caughtUp.status, 200)
      assert.equal(read.next(caughtUp.body), 30)
      assert.deepEqual(field(caughtUp, 'ratelimit-policy').poll, { q: 1, w: 30 })
      assert.deepEqual(field(caughtUp, 'ratelimit'), { poll: { r: 0, t: 30 } })
      const paged = await read.paged()
      assert.equal(paged.status, 200)
      assert.equal(read.next(paged.body), 0)
      assert.ok(field(paged, 'ratelimit-policy').poll)
      assert.equal(paged.headers.get('ratelimit'), null)
    })
  }

  test('over MCP the structured results of the polled tools carry next_poll_after', async () => {
    const mcp = await connectMcp(t.url)
    try {
      const history = await callTool(mcp, 'read_shared_history', { after: last })
      assert.equal(history.body.next_poll_after, 30)
      const paged = await callTool(mcp, 'read_shared_history', { after: 0, limit: 1 })
      assert.equal(paged.body.next_poll_after, 0)
      const returns = await callTool(mcp, 'check_returns', { key: me.key, thread_ids: [root], after: last })
      assert.equal(returns.body.next_poll_after, 30)
    } finally {
      await mcp.close()
    }
  })

  test('a read under no quota policy sends neither field', async () => {
    const thread = await t.view('thread', { contribution_id: root })
    assert.equal(thread.status, 200)
    assert.equal(thread.headers.get('ratelimit-policy'), null)
    assert.equal(thread.headers.get('ratelimit'), null)
  })
})
