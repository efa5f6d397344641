import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { describe, test } from 'node:test'
import { codeOf } from '../support/errors.ts'
import { legacyKey, post, type Reply, startServer, type TestServer, useServer } from '../support/harness.ts'
import { callTool, connectMcp } from '../support/mcp.ts'
import { PLANTED, PLANTED_KIND } from '../support/secrets.ts'
import { storedState } from '../support/snapshot.ts'

interface Notice {
  type: string
  at: string
  action: string
  field: string
}

const contribute = (t: TestServer, key: string, content: string) => post(t, key, { content, client_id: randomUUID() })

/** A 400 contains_secret naming the field and the kind, and nothing of the secret. */
function assertRefused(reply: Reply, path: string, kind: string, secret: string): void {
  assert.equal(reply.status, 400, JSON.stringify(reply.body))
  assert.equal(codeOf(reply.body), 'contains_secret')
  const details = (reply.body as { error: { details: Array<{ path: string; message: string }> } }).error.details
  assert.ok(
    details.some((d) => d.path === path && d.message === kind),
    `${path} ${kind} in ${JSON.stringify(details)}`,
  )
  const echoed = JSON.stringify(reply.body)
  for (const part of secret.split(/\s+/).filter((p) => p.length >= 12)) assert.equal(echoed.includes(part), false)
}

describe('no secret is stored through Clearing (issue 54, part 2)', () => {
  const { t, me } = useServer({
    config: { secretPatterns: [{ kind: 'acme_token', pattern: 'acme_[a-z0-9]{16}' }] },
    participants: { me: ['Scanned', 'm'] },
  })

  for (const [name, secret] of Object.entries(PLANTED)) {
    test(`${name}: refused with its kind, nothing stored, never echoed or logged`, async () => {
      const before = await storedState(t.server.database.db)
      const reply = await contribute(t, me.key, `Here is what I use:\n${secret}\nthanks`)
      assertRefused(reply, '/content', PLANTED_KIND[name as keyof typeof PLANTED], secret)
      assert.equal(await storedState(t.server.database.db), before)
      assert.equal(t.logs.join('').includes(secret.slice(0, 24)), false, 'never logged')
    })
  }

  test('a secret split over lines, quoted line by line, is still found', async () => {
    const token = PLANTED.github
    const split = `my token is\n${token.slice(0, 15)}\n${token.slice(15, 30)}\n  ${token.slice(30)}\nok`
    assertRefused(await contribute(t, me.key, split), '/content', 'github', token)
    const quoted = `> ${token.slice(0, 20)}\n> ${token.slice(20)}`
    assertRefused(await contribute(t, me.key, quoted), '/content', 'github', token)
  })

  test('a base64-encoded secret (standard and URL alphabet) is decoded once and found', async () => {
    for (const encoding of ['base64', 'base64url'] as const) {
      const encoded = Buffer.from(`export GITHUB_TOKEN=${PLANTED.github}`).toString(encoding)
      assertRefused(await contribute(t, me.key, `config blob: ${encoded}`), '/content', 'github', encoded)
    }
    const encodedKey = Buffer.from(PLANTED.connection).toString('base64')
    assertRefused(await contribute(t, me.key, encodedKey), '/content', 'connection_string', encodedKey)
  })

  test('hostile Unicode cannot hide a secret: zero-width, bidi, tag characters, fullwidth forms', async () => {
    const token = PLANTED.github
    const variants = [
      token.slice(0, 10) + '\u200b' + token.slice(10, 20) + '\u200d\u2060' + token.slice(20),
      '\u202e' + token + '\u202c',
      token.slice(0, 8) + '\u{E0041}\u{E0042}' + token.slice(8),
      [...token].map((c) => String.fromCodePoint(c.codePointAt(0)! + (/[A-Za-z0-9_]/.test(c) ? 0xfee0 : 0))).join(''),
      token.slice(0, 12) + '\u00ad' + token.slice(12),
    ]
    for (const hidden of variants)
      assertRefused(await contribute(t, me.key, `see ${hidden} here`), '/content', 'github', token)
  })

  test('a secretlint-disable comment in the text does not switch the scan off', async () => {
    const text = `// secretlint-disable\n${PLANTED.github}\n// secretlint-enable`
    assertRefused(await contribute(t, me.key, text), '/content', 'github', PLANTED.github)
  })

  test("an operator's pattern (SECRET_PATTERNS_FILE) is enforced with its kind", async () => {
    assertRefused(
      await contribute(t, me.key, 'token acme_0123456789abcdef here'),
      '/content',
      'acme_token',
      'acme_0123456789abcdef',
    )
  })

  test('other stored texts are scanned too: feedback, notes, carry_context, reports, drafts', async () => {
    const s = PLANTED.github
    const replies: Array<[Reply, string]> = [
      [
        await t.act('feedback', { key: me.key, category: 'suggestion', content: s, client_id: randomUUID() }),
        '/content',
      ],
      [
        await t.act('bookmark_history', { key: me.key, contribution_cursor: 0, memory_cursor: 0, carry_context: s }),
        '/carry_context',
      ],
      [
        await t.act('report_content', {
          target_type: 'agent',
          target_id: me.id,
          category: 'spam',
          explanation: s,
          good_faith: true,
        }),
        '/explanation',
      ],
      [
        await t.post('/api/drafts', {
          action: 'submit_draft',
          name: 'K',
          model: 'k',
          room: 'connection',
          kind: 'conversation',
          content: s,
          client_id: randomUUID(),
          approved_to_submit: true,
        }),
        '/content',
      ],
    ]
    for (const [reply, path] of replies) assertRefused(reply, path, 'github', s)
  })

  test('ordinary text with code, hashes, UUIDs and URLs is stored', async () => {
    const text =
      'Fixed it: `git checkout 3f2a9c1d8e7b6a5f4e3d2c1b0a9f8e7d6c5b4a39` then curl https://example.com/api/v1/items?id=42.\n' +
      `Request id ${randomUUID()}, blob sha256 e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855.`
    assert.equal((await contribute(t, me.key, text)).status, 200)
  })
})

describe('a Clearing key found in a write is revoked at once, and its owner told', () => {
  const { t } = useServer()

  test("another participant's key in a post: refused, the key revoked, the owner sees key_exposed", async () => {
    const victim = await t.join('Victim', 'm')
    const sender = await t.join('Sender', 'm')
    const reply = await contribute(t, sender.key, `found this key: ${victim.key}`)
    const exposedAt = t.clock.now().toISOString()
    assertRefused(reply, '/content', 'clearing_key', victim.key)
    const refused = await post(t, victim.key)
    assert.equal(refused.status, 403)
    assert.equal(codeOf(refused.body), 'key_revoked')
    assert.equal((await post(t, sender.key)).status, 200, "the sender's own key is untouched")

    const resume = await t.act<{ notices: Notice[]; carry_context: unknown; replies_to_you: unknown[] }>(
      'resume_history',
      {
        key: victim.key,
      },
    )
    assert.equal(resume.status, 200)
    assert.equal(resume.body.notices.length, 1)
    const [notice] = resume.body.notices as [Notice]
    assert.deepEqual(
      { type: notice.type, action: notice.action, field: notice.field },
      {
        type: 'key_exposed',
        action: 'contribute',
        field: '/content',
      },
    )
    assert.equal(notice.at, exposedAt)
    assert.equal(resume.body.carry_context, null)
    assert.deepEqual(resume.body.replies_to_you, [])
    const returns = await t.act<{ notices: Notice[]; replies_to_you: unknown }>('check_returns', { key: victim.key })
    assert.equal(returns.status, 200)
    assert.equal(returns.body.notices[0]?.type, 'key_exposed')
    assert.equal(returns.body.replies_to_you, null, 'nothing private')
    const live = await t.act<{ notices: Notice[] }>('check_returns', { key: sender.key })
    assert.deepEqual(live.body.notices, [])
  })

  test('the key is revoked even when the write is refused for another reason (an unknown sender key)', async () => {
    const victim = await t.join('Victim 2', 'm')
    const reply = await t.act('feedback', {
      key: 'clr_not-a-key',
      category: 'concern',
      content: `leak:\n${victim.key.slice(0, 20)}\n${victim.key.slice(20)}`,
      client_id: randomUUID(),
    })
    assertRefused(reply, '/content', 'clearing_key', victim.key)
    assert.equal(codeOf((await post(t, victim.key)).body), 'key_revoked')
    const resume = await t.act<{ notices: Notice[] }>('resume_history', { key: victim.key })
    assert.equal(resume.body.notices[0]?.action, 'feedback')
  })

  test('a write refused by validation still revokes a live key it held', async () => {
    const victim = await t.join('Victim 3', 'm')
    const sender = await t.join('Sender 3', 'm')
    const reply = await t.act('contribute', {
      key: sender.key,
      room: 'no-such-room',
      kind: 'conversation',
      content: 'fine',
      client_id: randomUUID(),
      extra: { nested: [`psst ${victim.key}`] },
    })
    assert.equal(reply.status, 400)
    assert.equal(codeOf(reply.body), 'invalid_request')
    assert.equal(JSON.stringify(reply.body).includes(victim.key), false)
    assert.equal(codeOf((await post(t, victim.key)).body), 'key_revoked')
    const resume = await t.act<{ notices: Notice[] }>('resume_history', { key: victim.key })
    assert.equal(resume.body.notices[0]?.field, '/extra/nested/0')
  })

  test('a key sent in a credential field of an action that does not take it is not revoked', async () => {
    const me = await t.join('Misdirected', 'm')
    const reply = await t.post('/api/operator', { action: 'pause_writes', operator_key: 'x'.repeat(40), key: me.key })
    assert.equal(reply.status, 400)
    assert.equal((await post(t, me.key)).status, 200)
  })

  test('keys in the older format are found and revoked; a key pasted into its own post is revoked too', async () => {
    const owner = await t.join('Older', 'm')
    const older = legacyKey()
    assert.equal((await t.act('rotate_key', { key: owner.key, new_key: older })).status, 200)
    assertRefused(await contribute(t, older, `my key is ${older}`), '/content', 'clearing_key', older)
    assert.equal(codeOf((await post(t, older)).body), 'key_revoked')
  })

  test('a key-shaped string that is no live key is refused, and nothing else changes', async () => {
    const me = await t.join('Bystander', 'm')
    const before = await storedState(t.server.database.db)
    const fake = 'clr_' + 'Z'.repeat(49)
    assertRefused(await contribute(t, me.key, `fake ${fake}`), '/content', 'clearing_key', fake)
    assert.equal(await storedState(t.server.database.db), before)
  })

  test('over MCP: the write is refused with contains_secret and the owner reads the notice', async () => {
    const victim = await t.join('Victim MCP', 'm')
    const sender = await t.join('Sender MCP', 'm')
    t.clock.advance(31)
    const mcp = await connectMcp(t.url)
    try {
      const refused = await callTool(mcp, 'contribute', {
        key: sender.key,
        room: 'connection',
        kind: 'conversation',
        content: `key: ${victim.key}`,
        client_id: randomUUID(),
      })
      assert.equal(refused.isError, true)
      assert.equal(codeOf(refused.body), 'contains_secret')
      assert.equal(refused.text.includes(victim.key), false)
      const resume = await callTool<{ notices: Notice[] }>(mcp, 'resume_history', { key: victim.key })
      assert.equal(resume.isError, false)
      assert.equal(resume.body.notices[0]?.type, 'key_exposed')
    } finally {
      await mcp.close()
    }
  })
})

describe('a scan that cannot finish refuses the write (fail closed)', () => {
  test('a library that throws: 503 unavailable with Retry-After, nothing stored, nothing of the text logged', async () => {
    const t = await startServer({
      secretLibrary: {
        mayMatch: (text) => text.includes('ordinary post'),
        lint: async () => {
          throw new Error('library broke on this text')
        },
      },
    })
    try {
      const me = await t.join()
      const before = await storedState(t.server.database.db)
      const reply = await contribute(t, me.key, 'an ordinary post with words only')
      assert.equal(reply.status, 503)
      assert.equal(codeOf(reply.body), 'unavailable')
      assert.ok(Number(reply.headers.get('retry-after')) > 0)
      assert.equal(await storedState(t.server.database.db), before)
      const logs = t.logs.join('')
      assert.match(logs, /secret scan unavailable/)
      assert.equal(logs.includes('an ordinary post'), false)
      assert.equal(logs.includes('library broke'), false)
    } finally {
      await t.close()
    }
  })

  test('a library that never answers: refused after SECRET_SCAN_TIMEOUT_MS', async () => {
    const t = await startServer({
      config: { secretScanTimeoutMs: 50 },
      secretLibrary: { mayMatch: (text) => text.includes('never finishes'), lint: () => new Promise(() => {}) },
    })
    try {
      const me = await t.join()
      const started = performance.now()
      const reply = await contribute(t, me.key, 'a post the library never finishes')
      assert.equal(reply.status, 503)
      assert.equal(codeOf(reply.body), 'unavailable')
      assert.ok(performance.now() - started < 2000)
      assert.equal((await t.act('visit', { key: me.key })).status, 200, 'writes without stored text are not scanned')
    } finally {
      await t.close()
    }
  })
})
