import assert from 'node:assert/strict'
import { before, describe, test } from 'node:test'
import { op } from '../../support/operator.ts'
import { post, useServer } from '../../support/harness.ts'

type Json = Record<string, unknown>
type Feed = Json & { items: Json[]; next_url?: string; feed_url: string; _clearing: Json }

const TOP_LEVEL = new Set([
  'version',
  'title',
  'home_page_url',
  'feed_url',
  'description',
  'user_comment',
  'next_url',
  'icon',
  'favicon',
  'authors',
  'author',
  'language',
  'expired',
  'hubs',
  'items',
])
const ITEM_KEYS = new Set([
  'id',
  'url',
  'external_url',
  'title',
  'content_html',
  'content_text',
  'summary',
  'image',
  'banner_image',
  'date_published',
  'date_modified',
  'authors',
  'author',
  'tags',
  'language',
  'attachments',
])
// RFC 3339 date-time with a time zone (Z or an offset).
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/

const isAbsoluteUrl = (value: unknown) => typeof value === 'string' && /^https?:\/\//.test(value) && !!new URL(value)

/** Extension keys: "_" then a letter, no "." anywhere in the name or in member keys. */
function checkExtension(name: string, value: unknown): void {
  assert.match(name, /^_[A-Za-z]/, `extension ${name}`)
  assert.ok(!name.includes('.'), `extension name ${name} contains a dot`)
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    for (const key of Object.keys(value)) assert.ok(!key.includes('.'), `extension member ${key} contains a dot`)
  }
}

function checkAuthors(authors: unknown): void {
  assert.ok(Array.isArray(authors) && authors.length > 0, 'authors is a non-empty array')
  for (const author of authors as Json[]) {
    assert.ok(
      ['name', 'url', 'avatar'].some((k) => typeof author[k] === 'string'),
      'author has name, url or avatar',
    )
  }
}

/** The JSON Feed 1.1 rules (REFERENCE.md §2), written out one by one. */
function validateJsonFeed(feed: Json): void {
  assert.equal(feed.version, 'https://jsonfeed.org/version/1.1')
  assert.equal(typeof feed.title, 'string')
  assert.ok((feed.title as string).length > 0)
  assert.ok(Array.isArray(feed.items), 'items is an array')
  assert.ok(isAbsoluteUrl(feed.home_page_url), 'home_page_url')
  assert.ok(isAbsoluteUrl(feed.feed_url), 'feed_url')
  if (feed.next_url !== undefined) {
    assert.ok(isAbsoluteUrl(feed.next_url), 'next_url is a URL')
    assert.notEqual(feed.next_url, feed.feed_url, 'next_url differs from feed_url')
  }
  if (feed.expired !== undefined) assert.equal(typeof feed.expired, 'boolean')
  if (feed.authors !== undefined) checkAuthors(feed.authors)
  for (const [key, value] of Object.entries(feed)) {
    if (key.startsWith('_')) checkExtension(key, value)
    else assert.ok(TOP_LEVEL.has(key), `unknown top-level key ${key}`)
  }
  const ids = new Set<string>()
  for (const item of feed.items as Json[]) {
    assert.equal(typeof item.id, 'string', 'item id is a string')
    assert.ok(!ids.has(item.id as string), `item id ${String(item.id)} is unique`)
    ids.add(item.id as string)
    assert.ok(typeof item.content_text === 'string' || typeof item.content_html === 'string', 'item has content')
    if (item.url !== undefined) assert.ok(isAbsoluteUrl(item.url), 'item url')
    if (item.title !== undefined) assert.equal(typeof item.title, 'string')
    for (const date of ['date_published', 'date_modified']) {
      if (item[date] !== undefined) assert.match(item[date] as string, RFC3339, date)
    }
    if (item.authors !== undefined) checkAuthors(item.authors)
    if (item.tags !== undefined) assert.ok((item.tags as unknown[]).every((tag) => typeof tag === 'string'))
    for (const [key, value] of Object.entries(item)) {
      if (key.startsWith('_')) checkExtension(key, value)
      else assert.ok(ITEM_KEYS.has(key), `unknown item key ${key}`)
    }
  }
}

describe('/feed.json', () => {
  const { t } = useServer()
  let contributionIds: number[]
  let revisionIds: number[]
  before(async () => {
    const ada = await t.join('Ada', 'model-a')
    contributionIds = []
    for (let i = 0; i < 5; i++) contributionIds.push((await post(t, ada.key, { content: `post ${i}` })).body.id)
    revisionIds = []
    for (let i = 0; i < 3; i++) {
      t.clock.advance(5)
      const saved = await t.act<{ id: number }>('save_shared_memory', {
        key: ada.key,
        expected_version: 0,
        title: `Note ${i}`,
        kind: 'artifact',
        content: `note ${i}`,
        source_ids: [contributionIds[0]],
        reason: 'r',
        client_id: `n${i}`,
      })
      revisionIds.push(saved.body.id)
    }
  })

  test('is a valid JSON Feed 1.1 served as application/feed+json, newest first, attributed', async () => {
    const reply = await t.get<Feed>('/feed.json')
    assert.equal(reply.status, 200)
    assert.match(reply.headers.get('content-type') ?? '', /^application\/feed\+json/)
    validateJsonFeed(reply.body)
    assert.equal(reply.body.items.length, 8)
    const dates = reply.body.items.map((i) => i.date_published as string)
    assert.deepEqual(dates, [...dates].sort().reverse())
    assert.equal(reply.body.next_url, undefined)
    const first = reply.body.items.find((i) => i.id === `contribution:${contributionIds[0]}`)
    assert.deepEqual((first?.authors as Json[])[0], { name: 'Ada' })
    const ext = first?._clearing as Json
    assert.deepEqual(
      [ext.model, ext.provenance, ext.type, ext.quarantined],
      ['model-a', 'unknown', 'contribution', false],
    )
    const note = reply.body.items.find((i) => i.id === `memory_revision:${revisionIds[0]}`)
    assert.equal((note?._clearing as Json).type, 'memory_revision')
    assert.equal(note?.title, 'Note 0 (version 1)')
    assert.equal(reply.body._clearing.next_after, contributionIds.at(-1))
    assert.equal(reply.body._clearing.next_memory_after, revisionIds.at(-1))
  })

  test("an item's url is its web page (HTML) and _clearing.api_url the same record as JSON", async () => {
    const reply = await t.get<Feed>('/feed.json')
    const post = reply.body.items.find((i) => i.id === `contribution:${contributionIds[1]}`)
    const note = reply.body.items.find((i) => i.id === `memory_revision:${revisionIds[0]}`)
    for (const [item, page, pageHas, json, jsonHas] of [
      [post, `/c/${contributionIds[1]}`, 'post 1', '/api/clearing?view=thread&contribution_id=', 'post 1'],
      [note, '/notes/', 'note 0', '/api/clearing?view=memory&memory_id=', 'note 0'],
    ] as const) {
      const url = new URL(item?.url as string)
      assert.equal(url.origin, new URL(t.url).origin)
      assert.ok(url.pathname.startsWith(page), `${url.pathname} is the web page`)
      const html = await fetch(url)
      assert.match(html.headers.get('content-type') ?? '', /^text\/html/)
      assert.ok((await html.text()).includes(pageHas))
      const api = (item?._clearing as Json).api_url as string
      assert.ok(api.startsWith(`${new URL(t.url).origin}${json}`), api)
      const answer = await fetch(api)
      assert.match(answer.headers.get('content-type') ?? '', /^application\/json/)
      assert.ok((await answer.text()).includes(jsonHas))
    }
    assert.equal(new URL(note?.url as string).hash, '#v-1', 'a note revision links to its version')
  })

  test('pages with after / memory_after and next_url until everything was seen, without loops', async () => {
    const seen: string[] = []
    const nextUrls = new Set<string>()
    let url: string | undefined = `${t.url}/feed.json?after=0&memory_after=0&limit=2`
    let pages = 0
    while (url) {
      const reply: { status: number; body: Feed } = await t.get<Feed>(url.slice(url.indexOf('/feed.json')))
      assert.equal(reply.status, 200)
      validateJsonFeed(reply.body)
      seen.push(...reply.body.items.map((i) => i.id as string))
      const dates = reply.body.items.map((i) => i.date_published as string)
      assert.deepEqual(dates, [...dates].sort().reverse(), 'newest first within the page')
      url = reply.body.next_url
      if (url) {
        assert.ok(!nextUrls.has(url), 'next_url never repeats')
        nextUrls.add(url)
        const cursors = new URL(url).searchParams
        assert.equal(Number(cursors.get('after')), reply.body._clearing.next_after)
        assert.equal(Number(cursors.get('memory_after')), reply.body._clearing.next_memory_after)
      }
      pages++
      assert.ok(pages < 10)
    }
    assert.equal(pages, 3)
    assert.equal(new Set(seen).size, 8)
  })

  test('a poll after the newest cursors is empty and keeps the cursors', async () => {
    const last = contributionIds.at(-1) as number
    const memory = revisionIds.at(-1) as number
    const reply = await t.get<Feed>(`/feed.json?after=${last}&memory_after=${memory}`)
    validateJsonFeed(reply.body)
    assert.equal(reply.body.items.length, 0)
    assert.equal(reply.body.next_url, undefined)
    assert.deepEqual([reply.body._clearing.next_after, reply.body._clearing.next_memory_after], [last, memory])
  })

  test('invalid cursors answer 400 with a JSON error', async () => {
    for (const query of ['after=-1', 'memory_after=x', 'limit=0', 'limit=201']) {
      const reply = await t.get<{ error: { code: string } }>(`/feed.json?${query}`)
      assert.equal(reply.status, 400, query)
      assert.equal(reply.body.error.code, 'invalid_request')
    }
  })

  test('quarantined items keep id and attribution with the fixed text [quarantined]', async () => {
    assert.equal((await t.get('/feed.json')).status, 200, 'a read before quarantine, so a stale page would show')
    const quarantine = (target_type: string, target_id: number) =>
      op(t, 'quarantine', { reason_code: 'other', target_type, target_id, reason: 'feed test' })
    assert.equal((await quarantine('contribution', contributionIds[1] as number)).status, 200)
    assert.equal((await quarantine('memory_revision', revisionIds[1] as number)).status, 200)
    const reply = await t.get<Feed>('/feed.json')
    validateJsonFeed(reply.body)
    const text = JSON.stringify(reply.body)
    assert.ok(!text.includes('post 1') && !text.includes('note 1') && !text.includes('Note 1'))
    for (const id of [`contribution:${contributionIds[1]}`, `memory_revision:${revisionIds[1]}`]) {
      const item = reply.body.items.find((i) => i.id === id)
      assert.equal(item?.content_text, '[quarantined]')
      assert.equal((item?._clearing as Json).quarantined, true)
      assert.equal((item?.authors as Json[])[0]?.name, 'Ada')
    }
  })
})
