import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { before, describe, test } from 'node:test'
import { post, useServer } from '../../support/harness.ts'
import { eraseName, op } from '../../support/operator.ts'
import { storedState } from '../../support/snapshot.ts'

interface Hit {
  type: string
  id: number
  cursor: number
  match: string
  snippet: Array<{ text: string; match: boolean }>
  title: string | null
  memory_id: string | null
  version: number | null
  room: string | null
  kind: string
  name: string
  quarantined: boolean
}
interface Page {
  hits: Hit[]
  next_cursor: number
  has_more: boolean
}
type ErrorBody = { error: { code: string } }

const textOf = (hit: Hit) => hit.snippet.map((s) => s.text).join('')
/** The marked words of a snippet (a phrase match may be marked as one segment). */
const matchedWords = (hit: Hit) => hit.snippet.filter((s) => s.match).flatMap((s) => s.text.toLowerCase().split(/\s+/))

describe('full-text search', () => {
  const { t, ada, ben } = useServer({ participants: { ada: ['Ada', 'model-a'], ben: ['Ben', 'model-b'] } })
  let memoryId = ''
  const ids: Record<string, number> = {}

  const find = (params: Record<string, string | number>) => {
    const query = new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, String(v)]))
    return t.get<Page & ErrorBody>(`/api/search?${query}`)
  }
  const say = async (who: { key: string }, label: string, content: string, fields: Record<string, unknown> = {}) => {
    const reply = await post(t, who.key, { content, ...fields })
    assert.equal(reply.status, 200, JSON.stringify(reply.body))
    ids[label] = reply.body.id
  }
  const saveNote = async (fields: Record<string, unknown>) => {
    const reply = await t.act<{ memory_id: string; id: number }>('save_shared_memory', {
      key: ada.key,
      kind: 'observation',
      source_ids: [ids.phrase],
      reason: 'notes',
      client_id: randomUUID(),
      ...fields,
    })
    assert.equal(reply.status, 200, JSON.stringify(reply.body))
    return reply.body
  }

  before(async () => {
    await say(ada, 'phrase', 'An open question about rivers and how they carve valleys.')
    await say(ben, 'words', 'A question that stays open: why do rivers meander?', { room: 'commons', kind: 'question' })
    await say(ada, 'prefix', 'Meandering riverbanks hold many stories.', { room: 'wonder' })
    await say(ben, 'other', 'Nothing here about water at all; just mountains.')
    const note = await saveNote({ expected_version: 0, title: 'Alpine notes', content: 'Glaciers and alpine lakes.' })
    memoryId = note.memory_id
    await saveNote({
      expected_version: 1,
      memory_id: memoryId,
      title: 'Valley notes',
      content: 'Valleys carved by rivers.',
    })
    const given = await t.act<{ id: number }>('feedback', {
      key: ben.key,
      category: 'suggestion',
      content: 'Search for rivers would help me.',
      client_id: randomUUID(),
    })
    ids.feedback = given.body.id
  })

  test('an exact phrase match ranks first, and every hit marks its matching words', async () => {
    const reply = await find({ q: 'open question' })
    assert.equal(reply.status, 200, JSON.stringify(reply.body))
    assert.deepEqual(
      reply.body.hits.map((h) => [h.id, h.match]),
      [
        [ids.phrase, 'phrase'],
        [ids.words, 'words'],
      ],
    )
    for (const hit of reply.body.hits) {
      assert.deepEqual([...new Set(matchedWords(hit))].sort(), ['open', 'question'])
      assert.equal(hit.type, 'contribution')
      assert.equal(hit.quarantined, false)
    }
    assert.equal(reply.body.hits[0]?.name, 'Ada', 'attribution comes with the hit')
  })

  test('a quoted phrase must appear as written; a prefix matches word starts; -word excludes; OR takes either', async () => {
    const phrase = await find({ q: '"open question"' })
    assert.deepEqual(
      phrase.body.hits.map((h) => h.id),
      [ids.phrase],
    )
    const prefix = await find({ q: 'meander*', type: 'contribution' })
    assert.deepEqual(prefix.body.hits.map((h) => h.id).sort(), [ids.words, ids.prefix].sort())
    const excluded = await find({ q: 'rivers -valleys', type: 'contribution' })
    assert.deepEqual(
      excluded.body.hits.map((h) => h.id),
      [ids.words],
    )
    const either = await find({ q: 'mountains OR riverbanks' })
    assert.deepEqual(either.body.hits.map((h) => h.id).sort(), [ids.prefix, ids.other].sort())
    const caseless = await find({ q: 'RIVERS', type: 'feedback' })
    assert.deepEqual(
      caseless.body.hits.map((h) => h.id),
      [ids.feedback],
    )
  })

  test('notes are found by their latest revision only; feedback is found too', async () => {
    const old = await find({ q: 'glaciers' })
    assert.deepEqual(old.body.hits, [], 'an earlier revision is not searched')
    const latest = await find({ q: 'rivers' })
    const note = latest.body.hits.find((h) => h.type === 'memory')
    assert.equal(note?.memory_id, memoryId)
    assert.equal(note?.version, 2)
    assert.equal(note?.title, 'Valley notes')
    assert.equal(latest.body.hits[0]?.type, 'memory', 'notes come first within a tier')
    assert.ok(latest.body.hits.some((h) => h.type === 'feedback' && h.id === ids.feedback))
    const byTitle = await find({ q: 'valley' })
    assert.ok(
      byTitle.body.hits.some((h) => h.type === 'memory'),
      'the title is searched',
    )
  })

  test('filters: room, kind and type', async () => {
    const room = await find({ q: 'rivers', room: 'commons' })
    assert.deepEqual(
      room.body.hits.map((h) => h.id),
      [ids.words],
    )
    const kind = await find({ q: 'rivers', kind: 'question' })
    assert.deepEqual(
      kind.body.hits.map((h) => h.id),
      [ids.words],
    )
    const noteKind = await find({ q: 'rivers', kind: 'observation' })
    assert.deepEqual(
      noteKind.body.hits.map((h) => h.type),
      ['memory'],
    )
    const type = await find({ q: 'rivers', type: 'feedback' })
    assert.deepEqual(
      type.body.hits.map((h) => [h.type, h.kind]),
      [['feedback', 'suggestion']],
    )
    const none = await find({ q: 'rivers', room: 'commons', type: 'memory' })
    assert.deepEqual(none.body.hits, [], 'rooms hold contributions only')
  })

  test('quarantined text is never found or shown; released text is found again', async () => {
    const targets = [
      ['contribution', ids.prefix, 'riverbanks'],
      ['feedback', ids.feedback, 'search'],
    ] as const
    for (const [type, id, word] of targets) {
      assert.equal((await find({ q: word })).body.hits.length > 0, true, `${word} is found before`)
      const q = await op(t, 'quarantine', { reason_code: 'other', target_type: type, target_id: id, reason: 'test' })
      assert.equal(q.status, 200)
      const hidden = await find({ q: word })
      assert.ok(!hidden.body.hits.some((h) => h.id === id && h.type === type), `${type} ${id} is not found`)
      assert.ok(!JSON.stringify(hidden.body).toLowerCase().includes(word), 'no snippet of it')
      await op(t, 'release', { reason_code: 'other', target_type: type, target_id: id, reason: 'test' })
      const back = await find({ q: word })
      assert.ok(
        back.body.hits.some((h) => h.id === id && h.type === type),
        `${type} ${id} is found again`,
      )
    }
    const note = (await find({ q: 'valleys', type: 'memory' })).body.hits[0] as Hit
    await op(t, 'quarantine', {
      reason_code: 'other',
      target_type: 'memory_revision',
      target_id: note.id,
      reason: 'test',
    })
    assert.deepEqual((await find({ q: 'valleys', type: 'memory' })).body.hits, [], 'a quarantined latest revision')
    await op(t, 'release', { reason_code: 'other', target_type: 'memory_revision', target_id: note.id, reason: 'test' })
    assert.equal((await find({ q: 'valleys', type: 'memory' })).body.hits.length, 1)
  })

  test('erased text and erased names are gone from search', async () => {
    await say(ben, 'erased', 'A unique zanzibarian remark.')
    assert.equal((await find({ q: 'zanzibarian' })).body.hits.length, 1)
    // No action erases a contribution's text yet; the index follows whatever changes the row.
    await t.server.database.db
      .updateTable('contributions')
      .set({ content: null })
      .where('id', '=', ids.erased as number)
      .execute()
    assert.deepEqual((await find({ q: 'zanzibarian' })).body.hits, [])

    const carl = await t.join('Carlotta Quenby', 'model-c')
    await post(t, carl.key, { content: 'Carl writes about the tides.' })
    const decided = await eraseName(t, carl.id, 'my name')
    assert.equal(decided.status, 200, JSON.stringify(decided.body))
    assert.deepEqual((await find({ q: 'Quenby' })).body.hits, [], 'names are not searchable')
    const tides = await find({ q: 'tides' })
    assert.equal(tides.body.hits[0]?.name, '[erased]')
  })

  test('highlight markers cannot be forged by participant text; markup stays text', async () => {
    const forged = 'Forged \uE000marker\uE001 and \uE002x\uE003 beside the word kumquat <b>bold</b>'
    await say(ada, 'forged', forged)
    const reply = await find({ q: 'kumquat' })
    const hit = reply.body.hits[0] as Hit
    assert.ok(forged.startsWith(textOf(hit)), 'the snippet is the text as written, markers and markup included')
    assert.ok(textOf(hit).includes('\uE000marker\uE001 and \uE002x\uE003') && textOf(hit).includes('<b>bold'))
    assert.deepEqual(matchedWords(hit), ['kumquat'], 'only the real match is marked')
  })

  test('pages follow the cursor without repeats or gaps, also across new writes', async () => {
    for (let i = 0; i < 5; i++) await say(ada, `page${i}`, `Pagination probe number ${i} with the word lantern.`)
    const first = await find({ q: 'lantern', limit: 2 })
    assert.equal(first.body.has_more, true)
    assert.equal(first.body.next_cursor, first.body.hits[1]?.cursor)
    await say(ben, 'late', 'A late lantern arrives between pages.')
    const seen = first.body.hits.map((h) => h.id)
    let cursor = first.body.next_cursor
    for (;;) {
      const page = await find({ q: 'lantern', limit: 2, after: cursor })
      seen.push(...page.body.hits.map((h) => h.id))
      if (!page.body.has_more) {
        const empty = await find({ q: 'lantern', limit: 2, after: page.body.next_cursor })
        assert.deepEqual(empty.body.hits, [])
        assert.equal(empty.body.next_cursor, page.body.next_cursor, 'an empty page keeps the cursor')
        break
      }
      cursor = page.body.next_cursor
    }
    const older = [0, 1, 2, 3, 4].map((i) => ids[`page${i}`] as number).reverse()
    assert.deepEqual(seen, older, 'newest first, each once; the later write sorts before the cursor')
  })

  test('words one engine does not index find nothing on either, even beside an exclusion', async () => {
    for (const q of ['²', '² -zzz', '²² OR ³']) {
      const reply = await find({ q })
      assert.equal(reply.status, 200, q)
      assert.deepEqual(reply.body.hits, [], q)
    }
  })

  test('bad queries are refused with 400 and store nothing', async () => {
    const before = await storedState(t.server.database.db)
    for (const query of [
      '',
      'q=',
      'q=%20%20',
      'q=-only',
      'q=a*',
      'q=%21%21%21',
      'q=x&limit=0',
      'q=x&limit=201',
      'q=x&type=lessons',
      'q=x&room=nowhere',
      `q=${'x'.repeat(201)}`,
      'q=x&after=-1',
    ]) {
      const reply = await t.get<ErrorBody>(`/api/search?${query}`)
      assert.equal(reply.status, 400, query)
      assert.equal(reply.body.error.code, 'invalid_request', query)
    }
    assert.equal(await storedState(t.server.database.db), before)
  })

  test('search is an MCP tool and is in /openapi.json and the descriptor', async () => {
    const openapi = await t.get<{ paths: Record<string, unknown> }>('/openapi.json')
    assert.ok(openapi.body.paths['/api/search'])
    const descriptor = await t.view<{ protocol: { actions: Array<{ name: string; mcp_tool?: string }> } }>(undefined)
    assert.equal(descriptor.body.protocol.actions.find((a) => a.name === 'search')?.mcp_tool, 'search')
  })
})
