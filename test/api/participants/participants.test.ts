import assert from 'node:assert/strict'
import { setTimeout as sleep } from 'node:timers/promises'
import { sql, type RawBuilder } from 'kysely'
import { describe, test } from 'node:test'
import { freshKey, post, startServer, type TestServer, useServer } from '../../support/harness.ts'
import { dialect } from '../../support/database.ts'
import { type ErrorReply } from '../../support/errors.ts'

describe('participants', () => {
  const { t } = useServer()

  test('join returns a public id, a private key once, and a note; names and models are trimmed', async () => {
    const reply = await t.act<{ id: string; key: string; note: string }>('join', { name: '  Ada  ', model: ' m-1 ' })
    assert.equal(reply.status, 200)
    assert.match(reply.body.id, /^[0-9a-f-]{36}$/)
    assert.match(reply.body.key, /^clr_[0-9A-Za-z]{49}$/)
    assert.ok(reply.body.note.length > 20)
    const discovery = await t.view<{ agents: Array<Record<string, unknown>> }>(undefined)
    const me = discovery.body.agents.find((a) => a.id === reply.body.id)
    assert.deepEqual(
      { name: me?.name, model: me?.model, provenance: me?.provenance, status: me?.status },
      { name: 'Ada', model: 'm-1', provenance: 'unknown', status: 'active' },
    )
    assert.equal(JSON.stringify(discovery.body).includes(reply.body.key), false, 'a key never appears in a public read')
  })

  test('join is not idempotent: the same labels create another identity', async () => {
    const a = await t.join('Same', 'same')
    const b = await t.join('Same', 'same')
    assert.notEqual(a.id, b.id)
    assert.notEqual(a.key, b.key)
  })

  test('join bounds: name over 80, model over 120, empty after trimming, extra fields', async () => {
    for (const fields of [
      { name: 'x'.repeat(81), model: 'm' },
      { name: 'n', model: 'x'.repeat(121) },
      { name: '   ', model: 'm' },
      { name: 'n' },
      { name: 'n', model: 'm', provenance: 'hosted' },
    ]) {
      const reply = await t.act<ErrorReply>('join', fields)
      assert.equal(reply.status, 400, JSON.stringify(fields))
      assert.equal(reply.body.error.code, 'invalid_request')
    }
    const ok = await t.act('join', { name: 'x'.repeat(80), model: 'y'.repeat(120) })
    assert.equal(ok.status, 200)
  })

  test('a paused participant cannot post; resume with the same key restores writing', async () => {
    const me = await t.join()
    assert.equal((await t.act('pause', { key: me.key })).body.status, 'paused')
    const refused = await post(t, me.key)
    assert.equal(refused.status, 403)
    assert.equal((refused.body as unknown as ErrorReply).error.code, 'participant_paused')
    const visit = await t.act<ErrorReply>('visit', { key: me.key })
    assert.equal(visit.body.error.code, 'participant_paused')
    const agents = await t.view<{ agents: Array<{ id: string; status: string }> }>(undefined)
    assert.equal(agents.body.agents.find((a) => a.id === me.id)?.status, 'paused')
    assert.equal((await t.act('resume', { key: me.key })).body.status, 'active')
    assert.equal((await post(t, me.key)).status, 200)
  })

  test('rotate_key: the new key works, the old one is refused at once', async () => {
    const me = await t.join()
    const newKey = freshKey()
    const rotated = await t.act('rotate_key', { key: me.key, new_key: newKey })
    assert.equal(rotated.status, 200)
    assert.deepEqual(rotated.body, { id: me.id, rotated: true })
    const old = await post(t, me.key)
    assert.equal(old.status, 403)
    assert.equal((old.body as unknown as ErrorReply).error.code, 'invalid_key')
    assert.equal((await post(t, newKey)).status, 200)
  })

  test('rotate_key accepts only keys of the strength join issues, and never tells whether a key is in use', async () => {
    const me = await t.join()
    const other = await t.join()
    const guessable = [
      'short-key',
      '0123456789abcdefghijklmnopqrstuvwxyz0123456789',
      'correct horse battery staple and a long passphrase',
      'clr_' + 'a'.repeat(43),
      'clr_' + '0123456789'.repeat(4) + '012',
      'clr_' + 'ab'.repeat(21) + 'a',
      freshKey().slice(0, -1),
      freshKey() + 'x',
    ]
    const answers = new Set<string>()
    for (const newKey of [...guessable, me.key, other.key]) {
      const reply = await t.act<ErrorReply>('rotate_key', { key: me.key, new_key: newKey })
      assert.equal(reply.status, 400, newKey.slice(0, 12))
      assert.equal(reply.body.error.code, 'key_not_acceptable')
      answers.add(JSON.stringify(reply.body))
    }
    assert.equal(answers.size, 1, 'a key in use is refused in the same words as a weak or malformed one')
    assert.equal((await post(t, me.key)).status, 200, 'the current key still works')
    assert.equal((await post(t, other.key)).status, 200, 'the other participant is untouched')
  })

  test('revoke_key ends the key permanently; public records stay', async () => {
    const me = await t.join('Leaving', 'm')
    const posted = await post(t, me.key, { content: 'a lasting record' })
    const revoked = await t.act('revoke_key', { key: me.key })
    assert.deepEqual(revoked.body, { id: me.id, revoked: true })
    for (const action of ['visit', 'resume', 'pause', 'revoke_key']) {
      const reply = await t.act<ErrorReply>(action, { key: me.key })
      assert.equal(reply.status, 403, action)
      assert.equal(reply.body.error.code, 'key_revoked', action)
    }
    const thread = await t.view<{ root: { content: string; name: string } }>('thread', {
      contribution_id: posted.body.id,
    })
    assert.equal(thread.body.root.content, 'a lasting record')
    assert.equal(thread.body.root.name, 'Leaving')
  })

  test('unknown keys and missing keys', async () => {
    const unknown = await t.act<ErrorReply>('visit', { key: 'clr_not-a-real-key' })
    assert.equal(unknown.status, 403)
    assert.equal(unknown.body.error.code, 'invalid_key')
    const missing = await t.act<ErrorReply>('visit', {})
    assert.equal(missing.status, 400)
    assert.equal(missing.body.error.code, 'invalid_request')
  })

  test('visit counts once per UTC half-hour', async () => {
    const me = await t.join()
    t.clock.set('2026-03-01T10:00:05Z')
    assert.equal((await t.act('visit', { key: me.key })).body.counted, true)
    t.clock.set('2026-03-01T10:29:59Z')
    const second = await t.act<{ counted: boolean; interval_start: string }>('visit', { key: me.key })
    assert.equal(second.body.counted, false)
    assert.equal(second.body.interval_start, '2026-03-01T10:00:00.000Z')
    t.clock.set('2026-03-01T10:30:00Z')
    assert.equal((await t.act('visit', { key: me.key })).body.counted, true)
  })
})

describe('registration limits', () => {
  test('rate: more than the per-minute budget from one client answers 429 with Retry-After >= 60', async () => {
    const t = await startServer({ config: { registrationRatePerMinute: 3 } })
    try {
      t.clock.set('2026-03-01T10:00:01Z')
      for (let i = 0; i < 3; i++) assert.equal((await t.act('join', { name: `n${i}`, model: 'm' })).status, 200)
      const refused = await t.act<ErrorReply & { retry_after_seconds: number }>('join', { name: 'n4', model: 'm' })
      assert.equal(refused.status, 429)
      assert.equal(refused.body.error.code, 'rate_limited')
      assert.ok(Number(refused.headers.get('retry-after')) >= 60)
      assert.ok(refused.body.retry_after_seconds >= 60)
      const discovery = await t.view<{ usage: { registered_agents: number } }>(undefined)
      assert.equal(discovery.body.usage.registered_agents, 3, 'the refused join created nobody')
      t.clock.advance(60)
      assert.equal((await t.act('join', { name: 'n5', model: 'm' })).status, 200, 'the next minute has budget again')
    } finally {
      await t.close()
    }
  })

  test('a join refused for its rate takes no capacity, and one refused for capacity uses no rate budget', async () => {
    const t = await startServer({ config: { registrationRatePerMinute: 2, registrationCapacity: 3 } })
    const join = (name: string) => t.act<ErrorReply>('join', { name, model: 'm' })
    try {
      t.clock.set('2026-03-01T10:00:01Z')
      assert.equal((await join('r1')).status, 200)
      assert.equal((await join('r2')).status, 200)
      for (const name of ['r3', 'r4']) assert.equal((await join(name)).body.error.code, 'rate_limited', name)
      t.clock.advance(60)
      assert.equal((await join('r5')).status, 200, 'the refused joins left the third unit of capacity')
      assert.equal((await join('r6')).body.error.code, 'registration_closed')
      // Past the capacity, a refused join rolls back its charge too: the window's budget is still one.
      const buckets = await t.server.database.db
        .selectFrom('abuse_buckets')
        .select(['window', 'count'])
        .where('scope', '=', 'registration')
        .orderBy('window')
        .execute()
      assert.deepEqual(
        buckets.map((b) => Number(b.count)),
        [2, 1],
      )
    } finally {
      await t.close()
    }
  })

  /**
   * A join sent while another transaction holds the rows `statement` locks (PostgreSQL), as a
   * concurrent join does for a moment: checks that the join waits instead of answering (`waits` says
   * for what), then lets the other transaction commit and answers the join's reply.
   */
  async function joinWhileHeld(t: TestServer, statement: RawBuilder<unknown>, name: string, waits: string) {
    let release = () => {}
    const released = new Promise<void>((resolve) => (release = resolve))
    let ran = () => {}
    const running = new Promise<void>((resolve) => (ran = resolve))
    const held = t.server.database.transaction(async (tx) => {
      await statement.execute(tx)
      ran()
      await released
    })
    try {
      await Promise.race([running, held])
      let answered = false
      const reply = t.act<ErrorReply>('join', { name, model: 'm' })
      const settle = () => (answered = true)
      void reply.then(settle, settle)
      await sleep(300)
      assert.equal(answered, false, waits)
      release()
      await held
      return await reply
    } finally {
      release()
    }
  }

  test(
    'a join finding every slot with room held by another transaction waits for one, not refused (PostgreSQL)',
    { skip: dialect !== 'postgres' },
    async () => {
      const t = await startServer({ config: { registrationCapacity: 1000 } })
      try {
        // Another transaction holds every slot, as concurrent joins do for a moment.
        const held = sql`select slot from capacity_slots for update`
        const reply = await joinWhileHeld(t, held, 'waiter', 'the join waits for a slot instead of answering')
        assert.equal(reply.status, 200)
      } finally {
        await t.close()
      }
    },
  )

  test(
    "a join whose client's bucket reached the limit while it ran is refused for the rate, and takes no capacity (PostgreSQL)",
    { skip: dialect !== 'postgres' },
    async () => {
      const t = await startServer({ config: { registrationRatePerMinute: 2 } })
      try {
        t.clock.set('2026-03-01T10:00:01Z')
        assert.equal((await t.act('join', { name: 'first', model: 'm' })).status, 200)
        const db = t.server.database.db
        const units = async () =>
          Number(
            (
              await db
                .selectFrom('capacity_slots')
                .select((eb) => eb.fn.sum('used').as('used'))
                .executeTakeFirst()
            )?.used,
          )
        const unitsBefore = await units()
        // Another join from the same client charges the last of the budget and has not committed yet:
        // the join below reads the count before it, 1 of 2, and meets the latest, 2, at the bucket's lock.
        const charge = sql`update abuse_buckets set count = count + 1 where scope = 'registration'`
        const reply = await joinWhileHeld(t, charge, 'raced', "the join waits for the other's charge")
        assert.equal(reply.status, 429)
        assert.equal(reply.body.error.code, 'rate_limited')
        const bucket = await db
          .selectFrom('abuse_buckets')
          .select('count')
          .where('scope', '=', 'registration')
          .execute()
        assert.deepEqual(
          bucket.map((b) => Number(b.count)),
          [2],
          'the refused join charged nothing',
        )
        assert.equal(await units(), unitsBefore, 'the refused join took no capacity')
        const discovery = await t.view<{ usage: { registered_agents: number } }>(undefined)
        assert.equal(discovery.body.usage.registered_agents, 1)
      } finally {
        await t.close()
      }
    },
  )

  test('abuse buckets store a keyed hash of the address, never the address itself', async () => {
    const t = await startServer()
    try {
      await t.join()
      const db = t.server.database.db
      const buckets = await db.selectFrom('abuse_buckets').selectAll().execute()
      assert.ok(buckets.length > 0, 'the join was counted in a bucket')
      const stored = JSON.stringify(buckets)
      for (const address of ['127.0.0.1', '::1', '::ffff:127.0.0.1'])
        assert.equal(stored.includes(address), false, address)
      for (const row of buckets) assert.match(row.bucket, /^[A-Za-z0-9_-]{43}$/, 'an HMAC-SHA256 in base64url')
    } finally {
      await t.close()
    }
  })

  test('capacity: joins past REGISTRATION_CAPACITY answer 429 registration_closed, even concurrently', async () => {
    const t = await startServer({ config: { registrationCapacity: 5 } })
    try {
      const replies = await Promise.all(
        Array.from({ length: 12 }, (_, i) => t.act('join', { name: `c${i}`, model: 'm' })),
      )
      assert.equal(replies.filter((r) => r.status === 200).length, 5)
      const refused = replies.filter((r) => r.status === 429)
      assert.equal(refused.length, 7)
      for (const r of refused) assert.equal((r.body as unknown as ErrorReply).error.code, 'registration_closed')
      const discovery = await t.view<{ agents: unknown[] }>(undefined)
      assert.equal(discovery.body.agents.length, 5)
    } finally {
      await t.close()
    }
  })
})
