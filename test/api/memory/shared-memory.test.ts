import assert from 'node:assert/strict'
import { before, describe, test } from 'node:test'
import { post, twoInstances, useServer } from '../../support/harness.ts'
import { op } from '../../support/operator.ts'

type Saved = { id: number; memory_id: string; version: number; duplicate: boolean }
type ErrorBody = { error: { code: string; details?: Array<{ path: string }> } }
type Revision = { id: number; version: number; title: string; content: string | null; name: string; reason: string }
type Note = { current_version: number; revisions: Revision[] }

function note(key: string, fields: Record<string, unknown> = {}) {
  return {
    key,
    expected_version: 0,
    title: 'What we noticed',
    kind: 'observation',
    content: 'Replies come faster in the morning.',
    source_ids: [1],
    reason: 'first draft',
    client_id: `m-${Math.random()}`,
    ...fields,
  }
}

describe('shared notes', () => {
  const { t, ada, bo } = useServer({ participants: { ada: ['Ada', 'model-a'], bo: ['Bo', 'model-b'] } })
  let source: number
  before(async () => {
    source = (await post(t, ada.key)).body.id
  })

  const save = (fields: Record<string, unknown>) => t.act<Saved & ErrorBody>('save_shared_memory', fields)

  test('creates at version 1, revises with the current version, keeps every attributed revision', async () => {
    const created = await save(note(ada.key, { source_ids: [source] }))
    assert.equal(created.status, 200)
    assert.equal(created.body.version, 1)
    assert.equal(created.body.duplicate, false)
    const revised = await save(
      note(bo.key, {
        memory_id: created.body.memory_id,
        expected_version: 1,
        content: 'Replies come faster in the morning, UTC.',
        reason: 'time zone',
        source_ids: [source],
      }),
    )
    assert.equal(revised.status, 200)
    assert.equal(revised.body.version, 2)
    assert.equal(revised.body.memory_id, created.body.memory_id)
    assert.ok(revised.body.id > created.body.id)

    const read = await t.view<Note>('memory', { memory_id: created.body.memory_id })
    assert.equal(read.status, 200)
    assert.equal(read.body.current_version, 2)
    assert.deepEqual(
      read.body.revisions.map((r) => [r.version, r.name, r.reason]),
      [
        [1, 'Ada', 'first draft'],
        [2, 'Bo', 'time zone'],
      ],
    )
  })

  test('a stale expected_version answers 409 version_conflict and changes nothing', async () => {
    const created = await save(note(ada.key, { source_ids: [source] }))
    const memoryId = created.body.memory_id
    await save(note(bo.key, { memory_id: memoryId, expected_version: 1, source_ids: [source] }))
    const stale = await save(note(ada.key, { memory_id: memoryId, expected_version: 1, content: 'overwrite?' }))
    assert.equal(stale.status, 409)
    assert.equal(stale.body.error.code, 'version_conflict')
    const ahead = await save(note(ada.key, { memory_id: memoryId, expected_version: 5 }))
    assert.equal(ahead.status, 409)
    const recreate = await save(note(ada.key, { memory_id: memoryId, expected_version: 0 }))
    assert.equal(recreate.status, 409)
    const read = await t.view<Note>('memory', { memory_id: memoryId })
    assert.equal(read.body.current_version, 2)
    assert.ok(read.body.revisions.every((r) => r.content !== 'overwrite?'))
  })

  test('idempotent retries: same payload -> duplicate true; changed payload -> 409 idempotency_conflict', async () => {
    const fields = note(ada.key, { source_ids: [source], client_id: 'note-retry' })
    const first = await save(fields)
    const again = await save(fields)
    assert.equal(again.status, 200)
    assert.deepEqual(again.body, { ...first.body, duplicate: true })
    const changed = await save({ ...fields, content: 'something else' })
    assert.equal(changed.status, 409)
    assert.equal(changed.body.error.code, 'idempotency_conflict')
  })

  test('source_ids: 1 to 20 existing contributions, no repeats', async () => {
    const cases: Array<[unknown, number, string]> = [
      [[], 400, 'invalid_request'],
      [Array.from({ length: 21 }, (_, i) => i + 1), 400, 'invalid_request'],
      [[source, source], 400, 'invalid_request'],
      [[0], 400, 'invalid_request'],
      [[source, 999_999], 400, 'not_found'],
    ]
    for (const [sourceIds, status, code] of cases) {
      const reply = await save(note(ada.key, { source_ids: sourceIds }))
      assert.equal(reply.status, status, JSON.stringify(sourceIds))
      assert.equal(reply.body.error.code, code)
    }
  })

  test('bad input is refused and stores nothing', async () => {
    const before = await t.view<{ memory_revisions: Revision[] }>('history', { memory_after: 0, limit: 200 })
    const bad: Array<[Record<string, unknown>, number, string]> = [
      [note(ada.key, { kind: 'charter' }), 400, 'invalid_request'],
      [note(ada.key, { title: '' }), 400, 'invalid_request'],
      [note(ada.key, { extra: 1 }), 400, 'invalid_request'],
      [note(ada.key, { expected_version: -1 }), 400, 'invalid_request'],
      [note(ada.key, { expected_version: 2 }), 400, 'invalid_request'],
      [note(ada.key, { memory_id: 'not-a-uuid', expected_version: 1 }), 400, 'invalid_request'],
      [note(ada.key, { memory_id: '00000000-0000-4000-8000-000000000000', expected_version: 1 }), 400, 'not_found'],
      [note('clr_unknown'), 403, 'invalid_key'],
    ]
    for (const [fields, status, code] of bad) {
      const reply = await save(fields)
      assert.equal(reply.status, status, JSON.stringify(fields))
      assert.equal(reply.body.error.code, code)
    }
    const afterwards = await t.view<{ memory_revisions: Revision[] }>('history', { memory_after: 0, limit: 200 })
    assert.equal(afterwards.body.memory_revisions.length, before.body.memory_revisions.length)
  })

  test('view=memory: unknown note is not_found, a bad id is invalid', async () => {
    const missing = await t.view<ErrorBody>('memory', { memory_id: '00000000-0000-4000-8000-000000000000' })
    assert.equal(missing.body.error.code, 'not_found')
    const bad = await t.view<ErrorBody>('memory', { memory_id: 'x' })
    assert.equal(bad.status, 400)
  })

  test('revisions appear in view=history and view=arrival with the memory_after cursor', async () => {
    const created = await save(note(ada.key, { source_ids: [source], title: 'Cursor note' }))
    const history = await t.view<{ memory_revisions: Revision[]; next_memory_cursor: number }>('history', {
      memory_after: created.body.id - 1,
    })
    assert.equal(history.body.memory_revisions[0]?.id, created.body.id)
    assert.equal(history.body.memory_revisions[0]?.title, 'Cursor note')
    const next = await t.view<{ memory_revisions: Revision[]; next_memory_cursor: number }>('history', {
      memory_after: history.body.next_memory_cursor,
    })
    assert.equal(next.body.memory_revisions.length, 0)
    const arrival = await t.view<{ memory_revisions: Revision[] }>('arrival')
    assert.ok(arrival.body.memory_revisions.some((r) => r.id === created.body.id))
  })

  test('quarantined revisions are masked in view=memory', async () => {
    const created = await save(note(ada.key, { source_ids: [source], title: 'Secret', content: 'hidden text' }))
    const masked = await op(t, 'quarantine', {
      reason_code: 'other',
      target_type: 'memory_revision',
      target_id: created.body.id,
      reason: 'test',
    })
    assert.equal(masked.status, 200)
    const read = await t.view<{ revisions: Array<Record<string, unknown>> }>('memory', {
      memory_id: created.body.memory_id,
    })
    assert.deepEqual(
      [read.body.revisions[0]?.content, read.body.revisions[0]?.title, read.body.revisions[0]?.quarantined],
      [null, null, true],
    )
    assert.equal(read.body.revisions[0]?.name, 'Ada')
  })

  test('20 concurrent saves at the same expected_version: exactly one new version and 19 x 409', async () => {
    const created = await save(note(ada.key, { source_ids: [source] }))
    const editors = await Promise.all(Array.from({ length: 20 }, (_, i) => t.join(`Editor ${i}`, 'race')))
    const replies = await Promise.all(
      editors.map((e, i) =>
        save(note(e.key, { memory_id: created.body.memory_id, expected_version: 1, content: `edit ${i}` })),
      ),
    )
    assert.equal(replies.filter((r) => r.status === 200).length, 1)
    const conflicts = replies.filter((r) => r.status === 409)
    assert.equal(conflicts.length, 19)
    assert.ok(conflicts.every((r) => r.body.error.code === 'version_conflict'))
    const read = await t.view<Note>('memory', { memory_id: created.body.memory_id })
    assert.deepEqual(
      read.body.revisions.map((r) => r.version),
      [1, 2],
    )
  })
})

describe('shared notes across two instances on one database', () => {
  const instances = twoInstances()

  test('concurrent revisions through two servers: one wins, the rest 409', async () => {
    const { a: one, b: two } = instances()
    const author = await one.join('Ada', 'model-a')
    const source = (await post(one, author.key)).body.id
    const created = await one.act<Saved>('save_shared_memory', note(author.key, { source_ids: [source] }))
    const editors = await Promise.all(Array.from({ length: 10 }, (_, i) => one.join(`E${i}`, 'race')))
    const replies = await Promise.all(
      editors.map((e, i) =>
        (i % 2 ? one : two).act('save_shared_memory', {
          ...note(e.key, { source_ids: [source] }),
          memory_id: created.body.memory_id,
          expected_version: 1,
        }),
      ),
    )
    assert.equal(replies.filter((r) => r.status === 200).length, 1)
    assert.equal(replies.filter((r) => r.status === 409).length, 9)
  })
})
