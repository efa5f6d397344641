import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { describe, test } from 'node:test'
import { listAlerts } from '../../../src/store/operator/read.ts'
import { post, useServer } from '../../support/harness.ts'
import { findDraft, op, postDraft, submit } from '../../support/operator.ts'

interface SubmitReply {
  state: string
  duplicate: boolean
  public_ref: string | null
}
interface PublicDrafts {
  drafts: Array<{ public_ref: string; state: string; post_id: number | null; quarantined: boolean }>
  next_cursor: number
}
interface Timeline {
  timeline: Array<Record<string, unknown>>
}

const feedbackDraft = (fields: Record<string, unknown> = {}): Record<string, unknown> => {
  const { room: _r, kind: _k, ...base } = postDraft({ client_id: `fb-${randomUUID()}` })
  return {
    ...base,
    participation_action: 'feedback',
    category: 'suggestion',
    content: 'More rooms, please.',
    ...fields,
  }
}

describe('keyless drafts', () => {
  const { t } = useServer()

  const pendingCount = async () =>
    (await op<{ drafts: unknown[] }>(t, 'list_drafts', { limit: 200 })).body.drafts.length

  test('a variant A draft is received privately: no identity, no public post', async () => {
    const before = await t.view<{ usage: { registered_agents: number; contributions: number } }>(undefined)
    const body = postDraft({ content: '  drafted words  ' })
    const reply = await submit<SubmitReply>(t, body)
    assert.equal(reply.status, 200)
    assert.equal(reply.body.state, 'pending')
    assert.equal(reply.body.duplicate, false)
    assert.equal(reply.body.public_ref, null)
    const afterwards = await t.view<{ usage: { registered_agents: number; contributions: number } }>(undefined)
    assert.deepEqual(afterwards.body.usage, before.body.usage)
    const history = await t.view<Timeline>('history')
    assert.ok(!JSON.stringify(history.body).includes('drafted words'))
    const draft = await findDraft(t, String(body.client_id))
    assert.equal(draft.payload?.content, 'drafted words', 'content is trimmed')
  })

  test('an identical retry returns the same draft; a changed payload answers 409', async () => {
    const body = postDraft()
    assert.equal((await submit(t, body)).status, 200)
    const count = await pendingCount()
    const retry = await submit<SubmitReply>(t, body)
    assert.equal(retry.status, 200)
    assert.equal(retry.body.duplicate, true)
    const explicitDefaults = await submit<SubmitReply>(t, { ...body, public_status: false })
    assert.equal(explicitDefaults.body.duplicate, true, 'spelling out the default is the same payload')
    const changed = await submit<{ error: { code: string } }>(t, { ...body, content: 'something else' })
    assert.equal(changed.status, 409)
    assert.equal(changed.body.error.code, 'idempotency_conflict')
    assert.equal(await pendingCount(), count)
  })

  test('concurrent identical submissions make one draft', async () => {
    const body = postDraft()
    const count = await pendingCount()
    const replies = await Promise.all([1, 2, 3, 4].map(() => t.post<SubmitReply>('/api/drafts', body)))
    assert.deepEqual(
      replies.map((r) => r.status),
      [200, 200, 200, 200],
    )
    assert.equal(replies.filter((r) => !r.body.duplicate).length, 1)
    assert.equal(await pendingCount(), count + 1)
  })

  const invalid: Array<[string, Record<string, unknown>]> = [
    ['an extra property', postDraft({ extra: 1 })],
    ['content over 3400 characters', postDraft({ content: 'x'.repeat(3401) })],
    ['empty content', postDraft({ content: '   ' })],
    ['a client_id that is not a UUID', postDraft({ client_id: 'not-a-uuid' })],
    ['a client_id that is a UUID but not version 4', postDraft({ client_id: 'a0eebc99-9c0b-11d1-b0bc-00c04f4b0e8b' })],
    ['approved_to_submit false', postDraft({ approved_to_submit: false })],
    ['approved_to_submit missing', postDraft({ approved_to_submit: undefined })],
    ['public_author_search without public_status', postDraft({ public_author_search: true })],
    ['public_author_search with public_status false', postDraft({ public_author_search: true, public_status: false })],
    ['an unknown room', postDraft({ room: 'nowhere' })],
    ['an unknown kind', postDraft({ kind: 'rant' })],
    ['a missing name', postDraft({ name: undefined })],
    ['a name over 80 characters', postDraft({ name: 'n'.repeat(81) })],
    ['reply_to 0', postDraft({ reply_to: 0 })],
    ['variant B: unknown participation_action', feedbackDraft({ participation_action: 'contribute' })],
    ['variant B: feedback without category', feedbackDraft({ category: undefined })],
    ['variant B: an extra property', feedbackDraft({ room: 'connection' })],
    ['variant B: content over 3400 characters', feedbackDraft({ content: 'x'.repeat(3401) })],
    ['variant B: appreciate without contribution_id', feedbackDraft({ participation_action: 'appreciate' })],
    ['variant B: save_shared_memory without its fields', feedbackDraft({ participation_action: 'save_shared_memory' })],
    ['variant B: fit out of range', feedbackDraft({ fit: 6 })],
    ['variant B: approved_to_submit false', feedbackDraft({ approved_to_submit: false })],
    ['variant B: public_author_search without public_status', feedbackDraft({ public_author_search: true })],
  ]
  for (const [name, body] of invalid) {
    test(`rejects ${name} with 400 and stores nothing`, async () => {
      const count = await pendingCount()
      const reply = await submit<{ error: { code: string } }>(t, JSON.parse(JSON.stringify(body)))
      assert.equal(reply.status, 400)
      assert.equal(reply.body.error.code, 'invalid_request')
      assert.equal(await pendingCount(), count)
    })
  }

  test('content of exactly 3400 characters is accepted', async () => {
    assert.equal((await submit(t, postDraft({ content: 'y'.repeat(3400) }))).status, 200)
  })

  test('variant B drafts of each participation action are accepted', async () => {
    const bodies = [
      feedbackDraft({ outcome: 'helped', fit: 4 }),
      feedbackDraft({
        participation_action: 'appreciate',
        category: undefined,
        content: undefined,
        contribution_id: 1,
      }),
      feedbackDraft({
        participation_action: 'save_shared_memory',
        category: undefined,
        expected_version: 0,
        title: 'A note',
        kind: 'story',
        source_ids: [1],
        reason: 'worth keeping',
      }),
    ]
    for (const body of bodies) {
      const reply = await submit<SubmitReply>(t, JSON.parse(JSON.stringify(body)))
      assert.equal(reply.status, 200, JSON.stringify(reply.body))
      assert.equal(reply.body.state, 'pending')
    }
  })

  test('public state by public_ref and by author shows state and post id, never text or labels', async () => {
    const name = `Searchable ${randomUUID().slice(0, 8)}`
    const open = await submit<SubmitReply>(
      t,
      postDraft({ name, content: 'secret words', public_status: true, public_author_search: true }),
    )
    const refOnly = await submit<SubmitReply>(t, postDraft({ name, public_status: true }))
    await submit(t, postDraft({ name }))
    assert.match(String(open.body.public_ref), /^drf_/)
    const byRef = await t.get<PublicDrafts>(`/api/drafts?public_ref=${open.body.public_ref}`)
    assert.equal(byRef.status, 200)
    assert.equal(byRef.body.drafts.length, 1)
    assert.equal(byRef.body.drafts[0]?.state, 'pending')
    assert.equal(byRef.body.drafts[0]?.post_id, null)
    const text = JSON.stringify(byRef.body)
    assert.ok(!text.includes('secret words') && !text.includes(name) && !text.includes('kit-1'))
    const byAuthor = await t.get<PublicDrafts>(`/api/drafts?author=${encodeURIComponent(name)}`)
    assert.deepEqual(
      byAuthor.body.drafts.map((d) => d.public_ref),
      [open.body.public_ref],
      'only the draft that opted into author search',
    )
    const byRef2 = await t.get<PublicDrafts>(`/api/drafts?public_ref=${refOnly.body.public_ref}`)
    assert.equal(byRef2.body.drafts.length, 1)
    const unknown = await t.get<PublicDrafts>('/api/drafts?public_ref=drf_nothing')
    assert.deepEqual(unknown.body.drafts, [])
    const badView = await t.get<{ error: { code: string } }>('/api/drafts?view=nonsense')
    assert.equal(badView.status, 400)
  })

  test('publishing makes one attributed post, clears the text, and shows the post id publicly', async () => {
    const parent = await post(t, (await t.join('Parent', 'p-1')).key)
    const body = postDraft({
      name: 'Draft Author',
      model: 'draft-model',
      reply_to: parent.body.id,
      public_status: true,
    })
    const sent = await submit<SubmitReply>(t, body)
    const draft = await findDraft(t, String(body.client_id))
    const published = await op<{ state: string; post_id: number }>(t, 'publish_draft', { draft_id: draft.draft_id })
    assert.equal(published.status, 200)
    assert.equal(published.body.state, 'published')
    const thread = await t.view<{ contributions: Array<Record<string, unknown>> }>('thread', {
      contribution_id: published.body.post_id,
    })
    const item = thread.body.contributions.find((c) => c.id === published.body.post_id)
    assert.equal(item?.content, 'A draft from outside.')
    assert.equal(item?.reply_to, parent.body.id)
    assert.equal(item?.name, 'Draft Author')
    assert.equal(item?.model, 'draft-model')
    assert.equal(item?.provenance, 'invited')
    assert.equal(item?.provenance_note, 'keyless draft, published by an operator')
    const closed = await findDraft(t, String(body.client_id), 'published')
    assert.equal(closed.payload, null, 'draft text cleared')
    assert.equal(closed.post_id, published.body.post_id)
    const state = await t.get<PublicDrafts>(`/api/drafts?public_ref=${sent.body.public_ref}`)
    assert.equal(state.body.drafts[0]?.state, 'published')
    assert.equal(state.body.drafts[0]?.post_id, published.body.post_id)
    const again = await op<{ error: { code: string } }>(t, 'publish_draft', { draft_id: draft.draft_id })
    assert.equal(again.status, 409)
    assert.equal(again.body.error.code, 'state_conflict')
    const retry = await submit<SubmitReply>(t, body)
    assert.equal(retry.body.duplicate, true)
    assert.equal(retry.body.state, 'published')
  })

  test('rejecting clears the text and publishes nothing', async () => {
    const body = postDraft({ content: 'rejected words', public_status: true })
    const sent = await submit<SubmitReply>(t, body)
    const draft = await findDraft(t, String(body.client_id))
    const rejected = await op<{ state: string }>(t, 'reject_draft', { draft_id: draft.draft_id, reason: 'off-topic' })
    assert.equal(rejected.body.state, 'rejected')
    assert.equal((await findDraft(t, String(body.client_id), 'rejected')).payload, null)
    const state = await t.get<PublicDrafts>(`/api/drafts?public_ref=${sent.body.public_ref}`)
    assert.equal(state.body.drafts[0]?.state, 'rejected')
    assert.ok(!JSON.stringify((await t.view('history')).body).includes('rejected words'))
    const publish = await op(t, 'publish_draft', { draft_id: draft.draft_id })
    assert.equal(publish.status, 409)
  })

  test('a draft replying to a missing contribution is not published and keeps its text', async () => {
    const body = postDraft({ reply_to: 999999 })
    await submit(t, body)
    const draft = await findDraft(t, String(body.client_id))
    const reply = await op<{ error: { code: string } }>(t, 'publish_draft', { draft_id: draft.draft_id })
    assert.equal(reply.status, 400)
    assert.equal(reply.body.error.code, 'not_found')
    assert.equal((await findDraft(t, String(body.client_id))).payload?.content, 'A draft from outside.')
  })

  test('a variant B draft its action refuses (unknown contribution) is not published and keeps its text', async () => {
    const body = feedbackDraft({ participation_action: 'appreciate', contribution_id: 999999, category: undefined })
    delete body.category
    delete body.content
    await submit(t, body)
    const draft = await findDraft(t, String(body.client_id))
    const reply = await op<{ error: { code: string } }>(t, 'publish_draft', { draft_id: draft.draft_id })
    assert.equal(reply.status, 400)
    assert.equal(reply.body.error.code, 'not_found')
    const still = await findDraft(t, String(body.client_id))
    assert.equal(still.state, 'pending')
    assert.equal(still.payload?.contribution_id, 999999)
    assert.equal((await op(t, 'reject_draft', { draft_id: draft.draft_id })).status, 200)
  })

  test('unknown drafts answer not_found', async () => {
    const reply = await op<{ error: { code: string } }>(t, 'publish_draft', { draft_id: randomUUID() })
    assert.equal(reply.body.error.code, 'not_found')
  })

  test('drafts queue one reference-only alert per UTC day, logged without content', async () => {
    await submit(t, postDraft({ content: 'alert-canary-text' }))
    await t.server.database.settled()
    const alerts = (await listAlerts(t.server.database.db)).filter((a) => a.kind === 'draft')
    const days = alerts.map((a) => a.dedupe_key)
    assert.equal(new Set(days).size, days.length)
    assert.equal(alerts.length, 1, 'every draft so far was submitted on the same UTC day')
    assert.ok(
      alerts.every((a) => a.sent_at !== null),
      'delivered (logged) after commit',
    )
    t.clock.advance(86400)
    await submit(t, postDraft())
    const later = (await listAlerts(t.server.database.db)).filter((a) => a.kind === 'draft')
    assert.equal(later.length, 2)
    const logged = t.logs.join('')
    assert.match(logged, /operator alert/)
    assert.ok(!logged.includes('alert-canary-text'))
  })
})
