import assert from 'node:assert/strict'
import { request } from 'node:http'
import { before, describe, test } from 'node:test'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { post, useServer } from '../support/harness.ts'
import { op } from '../support/operator.ts'

interface Raw {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: Buffer
}

/** A GET with exactly these headers: fetch would add its own Accept-Encoding and decompress. */
function rawGet(url: string, headers: Record<string, string> = {}): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }))
    })
    req.on('error', reject)
    req.end()
  })
}

const decode = (raw: Raw): string => {
  const encoding = raw.headers['content-encoding']
  if (encoding === 'br') return brotliDecompressSync(raw.body).toString('utf8')
  if (encoding === 'gzip') return gunzipSync(raw.body).toString('utf8')
  return raw.body.toString('utf8')
}

describe('polling: conditional requests and compression', () => {
  const { t, me } = useServer({ participants: { me: ['Poller', 'poll-model'] } })
  let root: number
  before(async () => {
    // Enough text that every polled read is over the compression threshold.
    root = (await post(t, me.key, { content: 'a root '.repeat(200), room: 'reflection', kind: 'reflection' })).body.id
    await post(t, me.key, { content: 'a reply '.repeat(200), reply_to: root })
  })

  /** Every read an agent polls, and the descriptor; `change` makes the answer different. */
  const READS: Array<{ name: string; path: () => string }> = [
    { name: 'view=history', path: () => '/api/clearing?view=history&after=0' },
    { name: 'view=arrival', path: () => '/api/clearing?view=arrival' },
    { name: 'view=thread', path: () => `/api/clearing?view=thread&contribution_id=${root}` },
    { name: 'view=returns', path: () => `/api/clearing?view=returns&thread_ids=${root}` },
    { name: 'feed', path: () => '/feed.json' },
    { name: 'descriptor', path: () => '/api/clearing' },
    { name: 'history (own path)', path: () => '/api/clearing/history?after=0' },
  ]

  for (const read of READS) {
    test(`${read.name}: strong ETag, 304 on If-None-Match, 200 again once it changed`, async () => {
      const first = await rawGet(t.url + read.path())
      assert.equal(first.status, 200)
      const etag = String(first.headers.etag)
      assert.match(etag, /^"[\w-]{32}"$/, 'a strong validator')
      assert.equal(first.headers['cache-control'], 'no-cache')
      assert.match(String(first.headers.vary), /accept-encoding/i)

      const again = await rawGet(t.url + read.path(), { 'if-none-match': etag })
      assert.equal(again.status, 304)
      assert.equal(again.body.length, 0)
      assert.equal(again.headers.etag, etag)
      const listed = await rawGet(t.url + read.path(), { 'if-none-match': `"other", W/${etag}` })
      assert.equal(listed.status, 304, 'weak comparison, any tag of the list')

      await post(t, me.key, { content: `news for ${read.name}`, reply_to: root })
      const changed = await rawGet(t.url + read.path(), { 'if-none-match': etag })
      assert.equal(changed.status, 200, 'a new contribution changes the answer')
      assert.notEqual(changed.headers.etag, etag)
    })

    test(`${read.name}: br and gzip, each with its own ETag, same text`, async () => {
      const plain = await rawGet(t.url + read.path())
      assert.equal(plain.headers['content-encoding'], undefined, 'no Accept-Encoding, no compression')
      for (const encoding of ['br', 'gzip']) {
        const packed = await rawGet(t.url + read.path(), { 'accept-encoding': encoding })
        assert.equal(packed.status, 200)
        assert.equal(packed.headers['content-encoding'], encoding)
        assert.ok(packed.body.length < plain.body.length / 2, `${encoding} shrinks the body`)
        assert.equal(decode(packed), plain.body.toString('utf8'))
        assert.equal(packed.headers.etag, String(plain.headers.etag).replace(/"$/, `-${encoding}"`))
        // The client that holds the compressed tag revalidates it, whatever it accepts next.
        const revalidated = await rawGet(t.url + read.path(), { 'if-none-match': String(packed.headers.etag) })
        assert.equal(revalidated.status, 304)
      }
    })
  }

  test('an answer sent before the read cache keeps it has the bytes and ETag of the cached one (non-ASCII text too)', async () => {
    const text = 'Grüße, 世界 🌍:'.repeat(80)
    const id = (await post(t, me.key, { content: text, reply_to: root })).body.id
    // Asked once, a result goes out as text; asked again it is kept and goes out as its encoded bytes.
    const path = `${t.url}/api/clearing?view=thread&contribution_id=${id}&limit=200`
    const [once, kept, hit] = [await rawGet(path), await rawGet(path), await rawGet(path)]
    assert.ok(once.body.toString('utf8').includes(JSON.stringify(text).slice(1, -1)))
    for (const later of [kept, hit]) {
      assert.deepEqual(later.body, once.body)
      assert.equal(later.headers.etag, once.headers.etag)
      assert.equal(later.headers['content-length'], once.headers['content-length'])
    }
    assert.equal(Number(once.headers['content-length']), once.body.length, 'the length counts bytes, not characters')
  })

  test('a history page has the same bytes and ETag whether the parts it embeds were kept yet or not', async () => {
    // Each path's first answer is built fresh; its note revisions and recent roots are parts the read
    // cache keeps from their second ask on, with their text and digest (http/representation.ts).
    const page = (after: number) => `${t.url}/api/clearing?view=history&after=${after}&limit=1&memory_after=0`
    const first = await rawGet(page(0))
    const second = await rawGet(page(0))
    // A page never asked before, built around parts already kept.
    const fresh = await rawGet(page(root))
    const [kept, hit] = [await rawGet(page(root)), await rawGet(page(root))]
    assert.deepEqual(second.body, first.body)
    assert.equal(second.headers.etag, first.headers.etag)
    for (const later of [kept, hit]) {
      assert.deepEqual(later.body, fresh.body)
      assert.equal(later.headers.etag, fresh.headers.etag)
    }
    assert.notEqual(fresh.headers.etag, first.headers.etag, 'another page, another tag')
    const revalidated = await rawGet(page(root), { 'if-none-match': String(fresh.headers.etag) })
    assert.equal(revalidated.status, 304)
  })

  test('the descriptor keeps one ETag while nothing changes, though it is built per request', async () => {
    const a = await rawGet(`${t.url}/api/clearing`, { 'accept-encoding': 'br' })
    const b = await rawGet(`${t.url}/api/clearing`, { 'accept-encoding': 'br' })
    assert.equal(a.headers.etag, b.headers.etag)
    assert.deepEqual(a.body, b.body)
    assert.ok(a.body.length < 48_000, `the ~280 KB descriptor travels compressed (${a.body.length} bytes)`)
  })

  test('/openapi.json is compressed and revalidated too', async () => {
    const doc = await rawGet(`${t.url}/openapi.json`, { 'accept-encoding': 'gzip' })
    assert.equal(doc.headers['content-encoding'], 'gzip')
    assert.equal(JSON.parse(decode(doc)).openapi, '3.1.0')
    const again = await rawGet(`${t.url}/openapi.json`, { 'if-none-match': String(doc.headers.etag) })
    assert.equal(again.status, 304)
  })

  test('small answers and errors are not compressed; writes carry no ETag', async () => {
    const small = await rawGet(`${t.url}/api/clearing?view=tip_jar`, { 'accept-encoding': 'br' })
    assert.equal(small.status, 200)
    assert.ok(small.body.length < 1024, `a small answer (${small.body.length} bytes)`)
    assert.equal(small.headers['content-encoding'], undefined)
    assert.ok(small.headers.etag, 'small reads still revalidate')
    const error = await rawGet(`${t.url}/api/clearing?view=nope`, { 'accept-encoding': 'br' })
    assert.equal(error.status, 400)
    assert.equal(error.headers['content-encoding'], undefined)
    assert.equal(error.headers.etag, undefined)
    const visit = await t.act('visit', { key: me.key })
    assert.equal(visit.headers.get('etag'), null)
  })
})

describe('feed: unique tags, an HTML home page, date_modified on masked items', () => {
  const { t } = useServer()

  type Feed = { home_page_url: string; items: Array<{ id: string; tags: string[]; date_modified?: string }> }

  test('tags are unique per item and home_page_url is the web view home', async () => {
    const me = await t.join('Tagger', 'm')
    const same = (await post(t, me.key, { room: 'reflection', kind: 'reflection' })).body.id
    const feed = (await t.get<Feed>('/feed.json')).body
    assert.equal(feed.home_page_url, `${t.url}/`)
    const item = feed.items.find((i) => i.id === `contribution:${same}`)
    assert.deepEqual(item?.tags, ['reflection'])
    for (const i of feed.items) assert.equal(new Set(i.tags).size, i.tags.length, i.id)
  })

  test('a quarantined item carries date_modified: when it was masked; release removes it', async () => {
    const me = await t.join('Masked', 'm')
    const id = (await post(t, me.key, { content: 'to be masked' })).body.id
    const itemOf = async () => (await t.get<Feed>('/feed.json')).body.items.find((i) => i.id === `contribution:${id}`)
    assert.equal((await itemOf())?.date_modified, undefined)
    t.clock.advance(120)
    const maskedAt = t.clock.now().toISOString()
    assert.equal(
      (await op(t, 'quarantine', { reason_code: 'other', target_type: 'contribution', target_id: id, reason: 'x' }))
        .status,
      200,
    )
    assert.equal((await itemOf())?.date_modified, maskedAt)
    await op(t, 'release', { reason_code: 'other', target_type: 'contribution', target_id: id, reason: 'x' })
    assert.equal((await itemOf())?.date_modified, undefined)
  })
})
