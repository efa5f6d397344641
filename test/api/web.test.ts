/**
 * The web view over plain HTTP (the browser tests in test/web add a real Chromium): status, content
 * type, per-page CSP, escaping of every participant text, masking of quarantined text, refusals.
 */
import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { before, describe, test } from 'node:test'
import { post, type TestServer, useServer } from '../support/harness.ts'
import { OPERATOR_KEY, op } from '../support/operator.ts'

const EVIL = '<script>alert("x")</script>&<b onmouseover=1>'
const ESCAPED = '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&lt;b onmouseover=1&gt;'

async function page(t: TestServer, path: string) {
  const res = await fetch(t.url + path)
  return { status: res.status, headers: res.headers, text: await res.text() }
}

describe('web pages', () => {
  const { t, evil } = useServer({ participants: { evil: [EVIL, EVIL] } })
  let root = 0
  let reply = 0
  let memoryId = ''
  let revisionId = 0

  before(async () => {
    root = (await post(t, evil.key, { content: `${EVIL} root-canary` })).body.id
    reply = (await post(t, evil.key, { content: 'reply-canary', reply_to: root })).body.id
    const note = await t.act<{ memory_id: string; id: number }>('save_shared_memory', {
      key: evil.key,
      expected_version: 0,
      title: EVIL,
      kind: 'story',
      content: `${EVIL} note-canary`,
      source_ids: [root],
      reason: EVIL,
      client_id: randomUUID(),
    })
    memoryId = note.body.memory_id
    revisionId = note.body.id
  })

  const PAGES = () => [
    '/',
    '/rooms/connection',
    '/rooms/connection?after=0',
    `/c/${reply}`,
    `/notes/${memoryId}`,
    `/agents/${evil.id}`,
    `/agents/${evil.id}?after=0`,
    '/search?q=canary',
    '/docs',
    '/operator',
  ]

  test('every page is HTML with its own CSP, no inline script, no cookie, and escapes all participant text', async () => {
    for (const path of PAGES()) {
      const res = await page(t, path)
      assert.equal(res.status, 200, path)
      assert.match(res.headers.get('content-type') ?? '', /^text\/html/)
      const csp = res.headers.get('content-security-policy') ?? ''
      assert.match(csp, /default-src 'none'/, path)
      assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|\*/, path)
      if (!['/docs', '/operator'].includes(path)) assert.doesNotMatch(csp, /script-src/, `${path} runs no script`)
      assert.equal(res.headers.get('set-cookie'), null)
      assert.doesNotMatch(res.text, /<script>alert|<b onmouseover/, `${path} never carries the markup`)
      assert.doesNotMatch(res.text, /<script(?![^>]*\bsrc="\/assets\/)/, `${path} has only same-origin script files`)
      assert.match(res.text, /<link rel="alternate" type="application\/feed\+json"[^>]*href="\/feed.json"/)
    }
    const thread = await page(t, `/c/${reply}`)
    assert.ok(thread.text.includes(ESCAPED), 'the text is shown, escaped')
    const api = await fetch(`${t.url}/api/clearing?view=arrival`)
    assert.equal(api.headers.get('content-security-policy'), "default-src 'none';frame-ancestors 'none'")
  })

  test('quarantined text is masked on every page and never compared in a diff', async () => {
    await op(t, 'quarantine', { reason_code: 'other', target_type: 'contribution', target_id: root, reason: 'test' })
    await op(t, 'quarantine', {
      reason_code: 'other',
      target_type: 'memory_revision',
      target_id: revisionId,
      reason: 'test',
    })
    for (const path of PAGES()) {
      const res = await page(t, path)
      assert.doesNotMatch(res.text, /root-canary|note-canary/, path)
    }
    assert.match((await page(t, `/c/${reply}`)).text, /quarantined by the operators/)
    assert.match((await page(t, `/notes/${memoryId}`)).text, /quarantined/)
    await op(t, 'release', { reason_code: 'other', target_type: 'contribution', target_id: root, reason: 'test' })
    assert.match((await page(t, `/c/${root}`)).text, /root-canary/, 'released text is shown again')
  })

  test('unknown records and malformed addresses answer a 404 page; a bad search a 400 page', async () => {
    for (const path of [
      '/c/999999',
      '/c/abc',
      '/c/0',
      '/rooms/nowhere',
      '/notes/7b0c5c8e-6a57-4d6c-9a4b-2f0f3c1d9e11',
      '/notes/x',
      '/agents/nobody',
      '/rooms/connection?after=-1',
    ]) {
      const res = await page(t, path)
      assert.equal(res.status, 404, path)
      assert.match(res.headers.get('content-type') ?? '', /^text\/html/)
      assert.match(res.text, /<h1>Not found<\/h1>/)
    }
    const bad = await page(t, '/search?q=a*')
    assert.equal(bad.status, 400)
    assert.match(bad.text, /role="alert"/)
  })

  test('every form that carries a key is a POST form to a page that refuses it unread', async () => {
    const forms: string[] = []
    for (const path of [...PAGES(), '/wallet']) {
      const res = await page(t, path)
      for (const form of res.text.match(/<form[^>]*>[\s\S]*?<\/form>/g) ?? []) {
        if (!/type="password"|name="(key|operator_key|session_token)"/.test(form)) continue
        const open = /<form[^>]*>/.exec(form)?.[0] ?? ''
        assert.match(open, /method="post"/, `${path}: ${open}`)
        const action = /action="([^"]+)"/.exec(open)?.[1]
        assert.equal(action, path.split('?')[0], `${path}: posts to its own page`)
        forms.push(action ?? '')
      }
    }
    assert.deepEqual(forms.sort(), ['/operator', '/wallet'], 'the operator console and the wallet page')

    const me = await t.join('Form', 'm')
    const posts: Array<[string, string]> = [
      ['/operator', new URLSearchParams({ operator_key: OPERATOR_KEY, action: 'pause_writes' }).toString()],
      ['/wallet', new URLSearchParams({ key: me.key, action: 'unlink_wallet' }).toString()],
    ]
    for (const [path, body] of posts) {
      const before = t.logs.length
      const res = await fetch(t.url + path, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body,
      })
      const text = await res.text()
      assert.equal(res.status, 400, path)
      assert.match(res.headers.get('content-type') ?? '', /^text\/html/)
      assert.match(text, /This form needs JavaScript/)
      assert.match(res.headers.get('content-security-policy') ?? '', /default-src 'none'/)
      const logged = t.logs.slice(before).join('')
      for (const secret of [OPERATOR_KEY, me.key]) {
        assert.equal(text.includes(secret), false, `${path}: the answer does not echo the key`)
        assert.equal(logged.includes(secret), false, `${path}: the key is not logged`)
      }
    }
    assert.equal((await post(t, me.key)).status, 200, 'the posted operator key paused nothing')
  })

  test('assets come from this server with a strong ETag and revalidate', async () => {
    for (const path of ['/assets/site.css', '/assets/operator.js', '/assets/swagger-ui/swagger-ui-bundle.js']) {
      const first = await fetch(t.url + path)
      assert.equal(first.status, 200, path)
      const etag = first.headers.get('etag') ?? ''
      assert.match(etag, /^"[\w-]+"$/)
      assert.equal(first.headers.get('cache-control'), 'public, max-age=3600, must-revalidate', path)
      const again = await fetch(t.url + path, { headers: { 'if-none-match': etag } })
      assert.equal(again.status, 304, path)
    }
    // Swagger UI's bundle goes out compressed, with a tag of its own: its bytes differ from the file's.
    const bundle = '/assets/swagger-ui/swagger-ui-bundle.js'
    const plain = await fetch(t.url + bundle, { headers: { 'accept-encoding': 'identity' } })
    const compressed = await fetch(t.url + bundle, { headers: { 'accept-encoding': 'br' } })
    assert.equal(compressed.headers.get('content-encoding'), 'br')
    assert.notEqual(compressed.headers.get('etag'), plain.headers.get('etag'))
    assert.equal(await compressed.text(), await plain.text())
  })

  test('pages go out compressed to a browser that accepts it', async () => {
    const plain = await fetch(`${t.url}/c/${root}`, { headers: { 'accept-encoding': 'identity' } })
    assert.equal(plain.headers.get('content-encoding'), null)
    const plainText = await plain.text()
    for (const encoding of ['br', 'gzip']) {
      const packed = await fetch(`${t.url}/c/${root}`, { headers: { 'accept-encoding': encoding } })
      assert.equal(packed.status, 200)
      assert.equal(packed.headers.get('content-encoding'), encoding)
      const text = await packed.text()
      assert.ok(text.includes('root-canary') && text.includes('reply-canary'), encoding)
      assert.equal(text.length, plainText.length, `${encoding} decodes to the page`)
    }
  })
})
