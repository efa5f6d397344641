import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { post, useServer } from '../../support/harness.ts'

type ErrorBody = { error: { code: string } }
type Bookmark = { contribution_cursor: number; memory_cursor: number; carry_context: string | null }
type Resume = {
  bookmark: Bookmark & { updated_at: string | null }
  replies_to_you: Array<{ id: number }>
  changed_shared_memory: Array<{ id: number }>
  recent_conversation_invitations: Array<{ id: number; participant_id: string }>
  carry_context: string | null
  next_contribution_cursor: number
  next_memory_cursor: number
}

describe('appreciate', () => {
  const { t } = useServer()

  test('one per participant per contribution of someone else, never one own', async () => {
    const ada = await t.join('Ada', 'm')
    const bo = await t.join('Bo', 'm')
    const mine = (await post(t, ada.key)).body.id
    const first = await t.act<{ duplicate: boolean }>('appreciate', { key: bo.key, contribution_id: mine })
    assert.equal(first.status, 200)
    assert.equal(first.body.duplicate, false)
    const again = await t.act<{ duplicate: boolean }>('appreciate', { key: bo.key, contribution_id: mine })
    assert.equal(again.status, 200)
    assert.equal(again.body.duplicate, true)
    const own = await t.act<ErrorBody>('appreciate', { key: ada.key, contribution_id: mine })
    assert.equal(own.status, 400)
    assert.equal(own.body.error.code, 'invalid_request')
    const missing = await t.act<ErrorBody>('appreciate', { key: bo.key, contribution_id: 999_999 })
    assert.equal(missing.body.error.code, 'not_found')
    const bad = await t.act<ErrorBody>('appreciate', { key: bo.key, contribution_id: 0 })
    assert.equal(bad.status, 400)
    const usage = await t.view<{ all_time: { appreciations: number; appreciating_agents: number } }>('usage')
    assert.deepEqual(usage.body.all_time.appreciations, 1)
    assert.deepEqual(usage.body.all_time.appreciating_agents, 1)
  })

  test('concurrent repeats still count once', async () => {
    const ada = await t.join('Ada2', 'm')
    const bo = await t.join('Bo2', 'm')
    const id = (await post(t, ada.key)).body.id
    const before = await t.view<{ all_time: { appreciations: number } }>('usage')
    const replies = await Promise.all(
      Array.from({ length: 8 }, () =>
        t.act<{ duplicate: boolean }>('appreciate', { key: bo.key, contribution_id: id }),
      ),
    )
    assert.equal(replies.filter((r) => r.body.duplicate === false).length, 1)
    const afterwards = await t.view<{ all_time: { appreciations: number } }>('usage')
    assert.equal(afterwards.body.all_time.appreciations, before.body.all_time.appreciations + 1)
  })
})

describe('bookmarks', () => {
  const { t } = useServer()

  test('resume without a bookmark starts from zero and returns everything relevant', async () => {
    const ada = await t.join('Ada', 'm')
    const bo = await t.join('Bo', 'm')
    const root = (await post(t, ada.key)).body.id
    const reply = (await post(t, bo.key, { reply_to: root })).body.id
    const resumed = await t.act<Resume>('resume_history', { key: ada.key })
    assert.equal(resumed.status, 200)
    assert.deepEqual(resumed.body.bookmark, {
      contribution_cursor: 0,
      memory_cursor: 0,
      carry_context: null,
      updated_at: null,
    })
    assert.deepEqual(
      resumed.body.replies_to_you.map((c) => c.id),
      [reply],
    )
    assert.equal(resumed.body.next_contribution_cursor, reply)
  })

  test('bookmark semantics: stored cursors, carry_context kept when omitted and cleared by null, reads never advance', async () => {
    const ada = await t.join('Cy', 'm')
    const bo = await t.join('Di', 'm')
    const root = (await post(t, ada.key)).body.id
    const early = (await post(t, bo.key, { reply_to: root })).body.id
    const saved = await t.act<Bookmark>('bookmark_history', {
      key: ada.key,
      contribution_cursor: early,
      memory_cursor: 0,
      carry_context: 'Ask Di about mornings.',
    })
    assert.equal(saved.status, 200)
    assert.equal(saved.body.carry_context, 'Ask Di about mornings.')
    const late = (await post(t, bo.key, { reply_to: root })).body.id
    const note = await t.act<{ id: number }>('save_shared_memory', {
      key: bo.key,
      expected_version: 0,
      title: 'n',
      kind: 'story',
      content: 'c',
      source_ids: [root],
      reason: 'r',
      client_id: 'n1',
    })
    for (let i = 0; i < 2; i++) {
      const resumed = await t.act<Resume>('resume_history', { key: ada.key })
      assert.deepEqual(
        resumed.body.replies_to_you.map((c) => c.id),
        [late],
      )
      assert.ok(resumed.body.changed_shared_memory.some((m) => m.id === note.body.id))
      assert.equal(resumed.body.carry_context, 'Ask Di about mornings.')
      assert.equal(resumed.body.bookmark.contribution_cursor, early)
      assert.ok(resumed.body.recent_conversation_invitations.length > 0, 'others started conversations')
      assert.ok(resumed.body.recent_conversation_invitations.every((c) => c.participant_id !== ada.id))
    }
    const kept = await t.act<Bookmark>('bookmark_history', {
      key: ada.key,
      contribution_cursor: late,
      memory_cursor: 0,
    })
    assert.equal(kept.body.carry_context, 'Ask Di about mornings.')
    const resumed = await t.act<Resume>('resume_history', { key: ada.key })
    assert.equal(resumed.body.replies_to_you.length, 0)
    const cleared = await t.act<Bookmark>('bookmark_history', {
      key: ada.key,
      contribution_cursor: late,
      memory_cursor: note.body.id,
      carry_context: null,
    })
    assert.equal(cleared.body.carry_context, null)
    const last = await t.act<Resume>('resume_history', { key: ada.key })
    assert.equal(last.body.carry_context, null)
    assert.equal(last.body.changed_shared_memory.length, 0)
  })

  test('bookmarks are private per key and validated', async () => {
    const ada = await t.join('Ed', 'm')
    const other = await t.join('Fa', 'm')
    await t.act('bookmark_history', { key: ada.key, contribution_cursor: 5, memory_cursor: 1, carry_context: 'mine' })
    const theirs = await t.act<Resume>('resume_history', { key: other.key })
    assert.equal(theirs.body.carry_context, null)
    const cases: Array<Record<string, unknown>> = [
      { contribution_cursor: -1, memory_cursor: 0 },
      { contribution_cursor: 0 },
      { contribution_cursor: 0, memory_cursor: 0, carry_context: 5 },
      { contribution_cursor: 0, memory_cursor: 0, carry_context: 'x'.repeat(4001) },
      { contribution_cursor: 0, memory_cursor: 0, extra: 1 },
    ]
    for (const fields of cases) {
      const reply = await t.act<ErrorBody>('bookmark_history', { key: ada.key, ...fields })
      assert.equal(reply.status, 400, JSON.stringify(fields))
    }
    const unchanged = await t.act<Resume>('resume_history', { key: ada.key })
    assert.deepEqual([unchanged.body.bookmark.contribution_cursor, unchanged.body.carry_context], [5, 'mine'])
    const noKey = await t.act<ErrorBody>('resume_history', {})
    assert.equal(noKey.status, 400)
    const badKey = await t.act<ErrorBody>('resume_history', { key: 'clr_nope' })
    assert.equal(badKey.status, 403)
  })

  test('a paused participant may still read its bookmark but not move it', async () => {
    const ada = await t.join('Gi', 'm')
    await t.act('pause', { key: ada.key })
    const read = await t.act('resume_history', { key: ada.key })
    assert.equal(read.status, 200)
    const write = await t.act<ErrorBody>('bookmark_history', { key: ada.key, contribution_cursor: 1, memory_cursor: 0 })
    assert.equal(write.status, 403)
    assert.equal(write.body.error.code, 'participant_paused')
  })
})
