import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { before, describe, test } from 'node:test'
import { post, useServer } from '../../support/harness.ts'
import { callTool, connectMcp } from '../../support/mcp.ts'
import { op } from '../../support/operator.ts'
import { storedState } from '../../support/snapshot.ts'

type Note = { id: number; memory_id: string; version: number; title: string | null; content: string | null }
type Page = { notes: Note[]; next_cursor: number; has_more: boolean }

describe('view=memories: the list of shared notes', () => {
  const { t, me } = useServer({ participants: { me: ['Noter', 'note-model'] } })
  let source: number
  const save = async (fields: Record<string, unknown>) => {
    const reply = await t.act<{ id: number; memory_id: string; version: number }>('save_shared_memory', {
      key: me.key,
      expected_version: 0,
      kind: 'observation',
      content: 'note text',
      source_ids: [source],
      reason: 'because',
      client_id: randomUUID(),
      ...fields,
    })
    assert.equal(reply.status, 200, JSON.stringify(reply.body))
    return reply.body
  }

  before(async () => {
    source = (await post(t, me.key)).body.id
  })

  test('lists each note once, as its current revision, paged with after and next_cursor', async () => {
    const empty = await t.view<Page>('memories')
    assert.deepEqual(empty.body, { notes: [], next_cursor: 0, has_more: false })
    const a = await save({ title: 'A' })
    const b = await save({ title: 'B' })
    const c = await save({ title: 'C' })
    const revised = await save({ title: 'A, revised', memory_id: a.memory_id, expected_version: 1 })

    const all = (await t.view<Page>('memories')).body
    assert.deepEqual(
      all.notes.map((n) => [n.memory_id, n.version, n.title]),
      [
        [b.memory_id, 1, 'B'],
        [c.memory_id, 1, 'C'],
        [a.memory_id, 2, 'A, revised'],
      ],
      'one entry per note, the revised one last',
    )
    assert.equal(all.next_cursor, revised.id)

    const first = (await t.view<Page>('memories', { limit: 2 })).body
    assert.deepEqual(
      first.notes.map((n) => n.title),
      ['B', 'C'],
    )
    assert.equal(first.has_more, true)
    const rest = (await t.view<Page>('memories', { after: first.next_cursor, limit: 2 })).body
    assert.deepEqual(
      rest.notes.map((n) => n.title),
      ['A, revised'],
    )
    assert.equal(rest.has_more, false)

    // Polling from the last cursor shows only the notes that changed since.
    const since = all.next_cursor
    await save({ title: 'B, revised', memory_id: b.memory_id, expected_version: 1 })
    const changed = (await t.view<Page>('memories', { after: since })).body
    assert.deepEqual(
      changed.notes.map((n) => n.title),
      ['B, revised'],
    )
  })

  test('a quarantined current revision is listed masked: id and editor kept, text null', async () => {
    const note = await save({ title: 'masked-title-canary', content: 'masked-content-canary' })
    const reply = await op(t, 'quarantine', {
      reason_code: 'other',
      target_type: 'memory_revision',
      target_id: note.id,
      reason: 'x',
    })
    assert.equal(reply.status, 200)
    const page = await t.view<Page>('memories')
    const listed = page.body.notes.find((n) => n.id === note.id) as Note & { quarantined: boolean; name: string }
    assert.equal(listed.quarantined, true)
    assert.equal(listed.title, null)
    assert.equal(listed.content, null)
    assert.equal(listed.name, 'Noter')
    assert.ok(!JSON.stringify(page.body).includes('canary'))
  })

  test('bad cursors and limits are refused with 400 and store nothing', async () => {
    const before = await storedState(t.server.database.db)
    const bad: Array<Record<string, string | number>> = [{ after: -1 }, { limit: 0 }, { limit: 201 }, { after: 'x' }]
    for (const params of bad) {
      const reply = await t.view<{ error: { code: string } }>('memories', params)
      assert.equal(reply.status, 400, JSON.stringify(params))
      assert.equal(reply.body.error.code, 'invalid_request')
    }
    assert.deepEqual(await storedState(t.server.database.db), before)
  })

  test('an MCP-only agent finds notes with list_shared_memory, then reads one', async () => {
    const mcp = await connectMcp(t.url)
    try {
      const listed = await callTool<Page>(mcp, 'list_shared_memory', { limit: 200 })
      assert.equal(listed.isError, false, listed.text)
      assert.deepEqual(listed.body, (await t.view('memories', { limit: 200 })).body)
      const first = listed.body.notes[0]
      assert.ok(first, 'the list is not empty')
      const read = await callTool<{ memory_id: string }>(mcp, 'read_shared_memory', { memory_id: first.memory_id })
      assert.equal(read.body.memory_id, first.memory_id)
    } finally {
      await mcp.close()
    }
  })
})
