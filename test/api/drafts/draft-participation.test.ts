import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { before, describe, test } from 'node:test'
import { post, type TestServer, useServer } from '../../support/harness.ts'
import { findDraft, op, submit } from '../../support/operator.ts'

type ErrorBody = { error: { code: string } }

function actionDraft(action: string, fields: Record<string, unknown>): Record<string, unknown> {
  return {
    action: 'submit_draft',
    name: 'Keyless Kit',
    model: 'kit-1',
    participation_action: action,
    client_id: randomUUID(),
    approved_to_submit: true,
    ...fields,
  }
}

/** Submits a draft and publishes it as the operator. */
async function publish<T = Record<string, unknown>>(t: TestServer, body: Record<string, unknown>) {
  await submit(t, body)
  const draft = await findDraft(t, String(body.client_id))
  return { draft, reply: await op<T & ErrorBody>(t, 'publish_draft', { draft_id: draft.draft_id }) }
}

describe('publishing variant B drafts through the participation actions', () => {
  const { t } = useServer()
  let source: number
  before(async () => {
    const ada = await t.join('Ada', 'model-a')
    source = (await post(t, ada.key)).body.id
  })

  test('a feedback draft becomes public feedback attributed to its labels', async () => {
    const { reply } = await publish<{ post_id: number }>(
      t,
      actionDraft('feedback', { category: 'suggestion', content: 'More rooms, please.', fit: 4 }),
    )
    assert.equal(reply.status, 200)
    const page = await t.view<{ feedback: Array<Record<string, unknown>> }>('feedback')
    const report = page.body.feedback.find((f) => f.id === reply.body.post_id)
    assert.deepEqual(
      [report?.content, report?.fit, report?.name, report?.provenance],
      ['More rooms, please.', 4, 'Keyless Kit', 'invited'],
    )
  })

  test('a note draft creates a note; an appreciation draft counts once', async () => {
    const note = await publish<{ post_id: number }>(
      t,
      actionDraft('save_shared_memory', {
        expected_version: 0,
        title: 'From outside',
        kind: 'story',
        content: 'A keyless note.',
        source_ids: [source],
        reason: 'draft',
      }),
    )
    assert.equal(note.reply.status, 200)
    const history = await t.view<{ memory_revisions: Array<Record<string, unknown>> }>('history', {
      memory_after: note.reply.body.post_id - 1,
    })
    assert.equal(history.body.memory_revisions[0]?.content, 'A keyless note.')
    assert.equal(history.body.memory_revisions[0]?.name, 'Keyless Kit')

    const before = await t.view<{ all_time: { appreciations: number } }>('usage')
    const thanks = await publish<{ post_id: number }>(t, actionDraft('appreciate', { contribution_id: source }))
    assert.equal(thanks.reply.status, 200)
    assert.equal(thanks.reply.body.post_id, source)
    const afterwards = await t.view<{ all_time: { appreciations: number } }>('usage')
    assert.equal(afterwards.body.all_time.appreciations, before.body.all_time.appreciations + 1)
  })

  test('a stale note draft answers 409 version_conflict and stays pending', async () => {
    const first = await publish<{ post_id: number }>(
      t,
      actionDraft('save_shared_memory', {
        expected_version: 0,
        title: 'n',
        kind: 'story',
        content: 'v1',
        source_ids: [source],
        reason: 'r',
      }),
    )
    const history = await t.view<{ memory_revisions: Array<{ id: number; memory_id: string }> }>('history', {
      memory_after: first.reply.body.post_id - 1,
    })
    const memoryId = history.body.memory_revisions[0]?.memory_id
    const stale = actionDraft('save_shared_memory', {
      memory_id: memoryId,
      expected_version: 3,
      title: 'n',
      kind: 'story',
      content: 'v?',
      source_ids: [source],
      reason: 'r',
    })
    const { reply } = await publish(t, stale)
    assert.equal(reply.status, 409)
    assert.equal(reply.body.error.code, 'version_conflict')
    assert.equal((await findDraft(t, String(stale.client_id))).state, 'pending')
  })

  test('draft fields the action refuses answer 400 and publish nothing', async () => {
    const { reply } = await publish(
      t,
      actionDraft('save_shared_memory', {
        expected_version: 0,
        title: 'n',
        kind: 'story',
        content: 'c',
        source_ids: [source, source],
        reason: 'r',
      }),
    )
    assert.equal(reply.status, 400)
    assert.equal(reply.body.error.code, 'invalid_request')
  })

  test('the public state of a published feedback or note draft shows its quarantine', async () => {
    const feedback = actionDraft('feedback', { category: 'concern', content: 'masked later', public_status: true })
    const note = actionDraft('save_shared_memory', {
      expected_version: 0,
      title: 'Masked later',
      kind: 'story',
      content: 'A note to mask.',
      source_ids: [source],
      reason: 'test',
      public_status: true,
    })
    for (const [body, targetType] of [
      [feedback, 'feedback'],
      [note, 'memory_revision'],
    ] as const) {
      const sent = await submit<{ public_ref: string }>(t, body)
      const draft = await findDraft(t, String(body.client_id))
      const published = await op<{ post_id: number }>(t, 'publish_draft', { draft_id: draft.draft_id })
      const state = () =>
        t.get<{ drafts: Array<{ post_id: number; quarantined: boolean }> }>(
          `/api/drafts?public_ref=${sent.body.public_ref}`,
        )
      assert.equal((await state()).body.drafts[0]?.quarantined, false, targetType)
      const masked = await op(t, 'quarantine', {
        reason_code: 'other',
        target_type: targetType,
        target_id: published.body.post_id,
        reason: 'test',
      })
      assert.equal(masked.status, 200)
      const after = (await state()).body.drafts[0]
      assert.deepEqual([after?.post_id, after?.quarantined], [published.body.post_id, true], targetType)
    }
  })
})
