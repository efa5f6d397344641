import assert from 'node:assert/strict'
import { connect, type Socket } from 'node:net'
import { describe, test } from 'node:test'
import { sameDigest, sha256, hmac } from '../../src/services/secrets.ts'
import { KEY_FAILURE_LIMIT } from '../../src/core/key-guard.ts'
import { freshKey, post, sharedDatabase, startServer, useServer } from '../support/harness.ts'
import { storedState } from '../support/snapshot.ts'
import { type ErrorReply } from '../support/errors.ts'

const PEPPER = 'hardening-test-pepper-0123456789abcdef'

describe('slow clients cannot hold a socket', () => {
  const { t } = useServer({ config: { requestTimeoutSeconds: 2 } })

  test('a body sent at 1 byte per second is cut off after the request timeout', async () => {
    const { socket, answer: answered, closed } = rawConnection(t.url)
    await new Promise((resolve) => socket.once('connect', resolve))
    const body = '{"action":"join","name":"slow","model":"m"}'
    socket.write(
      `POST /api/clearing HTTP/1.1\r\nHost: ${new URL(t.url).hostname}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
    )
    const started = Date.now()
    let sent = 0
    const drip = setInterval(() => {
      if (sent < body.length && !socket.destroyed) socket.write(body[sent++] ?? '')
    }, 1000)
    await closed
    const elapsed = Date.now() - started
    clearInterval(drip)
    const answer = answered()
    assert.ok(elapsed < 6000, `closed after ${elapsed} ms`)
    assert.ok(sent < body.length, 'the body never finished')
    assert.match(answer, /^HTTP\/1\.1 408/, 'answered 408 Request Timeout')
    assert.equal(errorOf(answer).error.code, 'request_timeout')
  })

  test('a normal client is unaffected', async () => {
    assert.equal((await t.act('join', { name: 'quick', model: 'm' })).status, 200)
  })
})

/** The JSON body of a raw HTTP/1.1 answer. */
function errorOf(answer: string): ErrorReply {
  const head = answer.indexOf('\r\n\r\n')
  assert.match(answer.slice(0, head), /content-type: application\/json/i)
  return JSON.parse(answer.slice(head + 4)) as ErrorReply
}

/** A raw TCP connection to the server: what it has answered so far, and when it closes. */
function rawConnection(url: string): { socket: Socket; answer: () => string; closed: Promise<void> } {
  const { hostname, port } = new URL(url)
  const socket = connect(Number(port), hostname)
  const received: string[] = []
  socket.on('data', (chunk: Buffer) => received.push(chunk.toString()))
  socket.on('error', () => {})
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()))
  return { socket, answer: () => received.join(''), closed }
}

/** Sends raw bytes on a new connection and reads until the server closes it. */
async function rawExchange(url: string, bytes: string): Promise<string> {
  const { socket, answer, closed } = rawConnection(url)
  socket.write(bytes)
  await closed
  return answer()
}

describe('requests Node refuses before routing answer with the error body', () => {
  const { t } = useServer()

  test('a request line and headers over the limit: 431 headers_too_large', async () => {
    const { key } = await t.join('long-query')
    const before = await storedState(t.server.database.db)
    const reply = await fetch(`${t.url}/api/clearing?view=history&after=${'9'.repeat(20_000)}`)
    assert.equal(reply.status, 431)
    assert.match(reply.headers.get('content-type') ?? '', /application\/json/)
    assert.equal(((await reply.json()) as ErrorReply).error.code, 'headers_too_large')
    t.clock.advance(31)
    const contribution = {
      action: 'contribute',
      key,
      room: 'connection',
      kind: 'conversation',
      content: 'x',
      client_id: 'c1',
    }
    const write = (padding: string) =>
      fetch(`${t.url}/api/clearing`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-padding': padding },
        body: JSON.stringify(contribution),
      })
    assert.equal((await write('p'.repeat(20_000))).status, 431)
    assert.equal(await storedState(t.server.database.db), before, 'nothing stored changed')
    assert.equal((await write('p')).status, 200, 'the same write with short headers goes through')
  })

  test('bytes that are not HTTP: 400 invalid_request', async () => {
    const answer = await rawExchange(t.url, 'HELLO THERE\r\n\r\n')
    assert.match(answer, /^HTTP\/1\.1 400/)
    assert.equal(errorOf(answer).error.code, 'invalid_request')
  })
})

describe('OPTIONS without the preflight headers', () => {
  const { t } = useServer()

  test('answers 204 with the methods and headers allowed, as a preflight would', async () => {
    const reply = await fetch(`${t.url}/api/clearing`, { method: 'OPTIONS' })
    assert.equal(reply.status, 204)
    assert.match(reply.headers.get('access-control-allow-methods') ?? '', /POST/)
  })
})

describe('methods a path does not serve answer 405 with Allow', () => {
  const { t } = useServer()

  for (const [method, path, allow] of [
    ['PUT', '/api/clearing', /GET.*POST|POST.*GET/],
    ['DELETE', '/api/clearing', /POST/],
    ['PATCH', '/api/drafts', /POST/],
    ['GET', '/api/operator', /^POST$/],
    ['DELETE', '/api/operator', /^POST$/],
    ['POST', '/feed.json', /GET/],
    ['PUT', '/healthz', /GET/],
  ] as const) {
    test(`${method} ${path}`, async () => {
      const reply = await fetch(t.url + path, {
        method,
        headers: { 'content-type': 'application/json' },
        body: method === 'GET' ? undefined : '{}',
      })
      assert.equal(reply.status, 405)
      assert.match(reply.headers.get('allow') ?? '', allow)
      assert.equal(((await reply.json()) as ErrorReply).error.code, 'method_not_allowed')
    })
  }

  test('an unknown path is still 404', async () => {
    assert.equal((await fetch(`${t.url}/nowhere`, { method: 'PUT' })).status, 404)
  })
})

describe('participation keys', () => {
  const { t } = useServer({ config: { keyPepper: PEPPER } })

  test('keys are stored as HMAC(pepper, SHA-256(key)): a dump alone cannot test guesses', async () => {
    const me = await t.join()
    const rows = await t.server.database.db.selectFrom('participant_keys').select('key_hash').execute()
    const stored = rows.map((r) => r.key_hash)
    assert.ok(!stored.includes(sha256(me.key)), 'not the unsalted SHA-256')
    assert.ok(
      stored.some((s) => sameDigest(s, hmac(PEPPER, sha256(me.key)))),
      'the peppered digest',
    )
    assert.ok(!JSON.stringify(await storedState(t.server.database.db)).includes(me.key), 'the key itself nowhere')
  })

  test(`wrong keys are throttled per abuse bucket: past ${KEY_FAILURE_LIMIT}, every key attempt answers 429, the right one too`, async () => {
    const me = await t.join('Target', 'm')
    for (let i = 0; i < KEY_FAILURE_LIMIT; i++) {
      const reply = await t.act<ErrorReply>('visit', { key: freshKey() })
      assert.equal(reply.status, 403, `guess ${i}`)
      assert.equal(reply.body.error.code, 'invalid_key')
    }
    const over = await t.act<ErrorReply>('visit', { key: freshKey() })
    assert.equal(over.status, 429)
    assert.equal(over.body.error.code, 'rate_limited')
    assert.ok(Number(over.headers.get('retry-after')) >= 60)
    const right = await t.act<ErrorReply>('visit', { key: me.key })
    assert.equal(right.status, 429, 'a right guess gains nothing while the bucket is blocked')
    assert.equal((await t.view('history')).status, 200, 'reading needs no key and is not throttled')
    t.clock.advance(601)
    assert.equal((await t.act('visit', { key: me.key })).status, 200, 'the window passes')
  })

  test('a wrong-key block answers Retry-After of at least 60 seconds to its last second', async () => {
    t.clock.advance(601)
    for (let i = 0; i < KEY_FAILURE_LIMIT; i++) await t.act('visit', { key: freshKey() })
    const first = await t.act<ErrorReply & { retry_after_seconds: number }>('visit', { key: freshKey() })
    assert.equal(first.status, 429)
    const start = t.clock.now().getTime()
    const remaining = Number(first.headers.get('retry-after'))
    assert.ok(remaining > 60, `the block starts with its whole window: ${remaining}`)
    // Late in the block fewer than 60 seconds remain; the answer still asks for at least 60 (DESIGN: 429 >= 60).
    // Retry-After is rounded up, so the block may end up to a second early: the last probe leaves 2.
    for (const left of [59, 30, 2]) {
      t.clock.set(new Date(start + (remaining - left) * 1000))
      const late = await t.act<ErrorReply & { retry_after_seconds: number }>('visit', { key: freshKey() })
      assert.equal(late.status, 429, `${left} s before the block ends`)
      assert.ok(
        Number(late.headers.get('retry-after')) >= 60,
        `${left} s left: Retry-After ${late.headers.get('retry-after')}`,
      )
      assert.ok(
        late.body.retry_after_seconds >= 60,
        `${left} s left: retry_after_seconds ${late.body.retry_after_seconds}`,
      )
    }
    t.clock.advance(61)
  })

  test('a key placed in a URL query string never reaches the log', async () => {
    const me = await t.join('Careless', 'm')
    await t.get(`/api/clearing?view=history&key=${me.key}`)
    await t.get(`/nowhere?key=${me.key}`)
    await fetch(`${t.url}/api/clearing?key=${me.key}`, { method: 'PUT' })
    const logs = t.logs.join('')
    assert.ok(logs.includes('"path":"/api/clearing"'), 'the request was logged by its path')
    assert.equal(logs.includes(me.key), false)
  })

  test('a key sent as a path segment never reaches the log or the answer', async () => {
    const me = await t.join('Pasted', 'm')
    const coming = 'clrs_' + 'aZ09'.repeat(12) + 'Q1w2e3'
    const receipt = 'rcpt_' + 'x'.repeat(43)
    const operatorKey = 'operator-secret-for-tests-0123456789'
    const cases: Array<[string, string, number, string]> = [
      ['GET', `/api/clearing/${me.key}`, 404, '/api/clearing/…'],
      ['POST', `/api/clearing/${me.key}/rotate`, 404, '/api/clearing/…'],
      ['GET', `/api/operator/${operatorKey}`, 404, '/api/operator/…'],
      ['GET', `/${me.key}`, 404, '/…'],
      ['GET', `/api/wallet/${coming}`, 404, '/api/wallet/…'],
      ['GET', `/notes/${receipt}/history`, 404, '/…'],
      // A route that matched keeps its path, with anything in a key's format censored.
      ['GET', `/agents/${me.key}`, 404, '/agents/[redacted]'],
      ['DELETE', '/api/clearing', 405, '/api/clearing'],
    ]
    for (const [method, path, status, logged] of cases) {
      const before = t.logs.length
      const reply = await fetch(t.url + path, { method })
      const text = await reply.text()
      assert.equal(reply.status, status, `${method} ${path}`)
      for (const secret of [me.key, coming, receipt, operatorKey]) {
        assert.equal(text.includes(secret), false, `${method} ${path}: the answer does not echo it`)
      }
      const lines = t.logs.slice(before).map((line) => JSON.parse(line) as { msg: string; path?: string })
      const line = lines.find((l) => l.msg === 'request')
      assert.equal(line?.path, logged, `${method} ${path}: ${JSON.stringify(lines)}`)
    }
    const logs = t.logs.join('')
    for (const secret of [me.key, coming, receipt, operatorKey]) assert.equal(logs.includes(secret), false, secret)
  })
})

describe('digests stored before the pepper are upgraded at start', () => {
  test('a key and a receipt stored as plain SHA-256 keep working after the upgrade', async () => {
    const database = await sharedDatabase()
    try {
      const first = await startServer({ databaseUrl: database.url, config: { keyPepper: PEPPER } })
      const me = await first.join('Old timer', 'm')
      const filed = await first.act<{ case_id: string; receipt_key: string }>('report_content', {
        target_type: 'agent',
        target_id: me.id,
        category: 'other',
        explanation: 'legacy receipt',
        good_faith: true,
      })
      // Rewrite both rows to what the service stored before the pepper existed.
      const db = first.server.database.db
      await db
        .updateTable('participant_keys')
        .set({ key_hash: sha256(me.key), peppered: 0 })
        .where('participant_id', '=', me.id)
        .execute()
      await db
        .updateTable('cases')
        .set({ receipt_hash: sha256(filed.body.receipt_key), peppered: 0 })
        .where('id', '=', filed.body.case_id)
        .execute()
      await first.close()
      const second = await startServer({ databaseUrl: database.url, config: { keyPepper: PEPPER } })
      try {
        assert.equal((await post(second, me.key)).status, 200, 'the old key still works')
        const status = await second.act('report_status', {
          case_id: filed.body.case_id,
          receipt_key: filed.body.receipt_key,
        })
        assert.equal(status.status, 200, 'the old receipt still works')
        const keys = await second.server.database.db.selectFrom('participant_keys').selectAll().execute()
        assert.ok(keys.every((k) => Number(k.peppered) === 1 && k.key_hash !== sha256(me.key)))
      } finally {
        await second.close()
      }
    } finally {
      await database.drop()
    }
  })
})
