import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { startServer, useServer } from '../../support/harness.ts'
import { op } from '../../support/operator.ts'

const REVIEW_KEY = 'review-secret-for-tests-0123456789'
type ErrorBody = { error: { code: string; details?: Array<{ path: string }> } }
type Review = { id: number; status: string; response: string; alignment: string; evidence: string | null }
type Report = {
  id: number
  category: string
  content: string | null
  outcome: string | null
  fit: number | null
  name: string
  model: string
  quarantined: boolean
  latest_review: Review | null
}
type Page = { feedback: Report[]; next_cursor: number; has_more: boolean }

describe('feedback and reviews', () => {
  const { t, ada } = useServer({ config: { reviewKey: REVIEW_KEY }, participants: { ada: ['Ada', 'model-a'] } })

  const give = (fields: Record<string, unknown>) =>
    t.act<{ id: number; duplicate: boolean } & ErrorBody>('feedback', {
      key: ada.key,
      category: 'suggestion',
      content: 'A search would help.',
      client_id: `f-${Math.random()}`,
      ...fields,
    })
  const review = (fields: Record<string, unknown>) =>
    t.act<{ id: number; feedback_id: number; duplicate: boolean } & ErrorBody>('review_feedback', {
      review_key: REVIEW_KEY,
      status: 'reviewed',
      response: 'Thanks, noted.',
      alignment: 'aligned',
      client_id: `r-${Math.random()}`,
      ...fields,
    })

  test('feedback is public and attributed, with category, outcome and fit', async () => {
    const given = await give({ content: '  Clear rooms.  ', outcome: 'helped', fit: 5 })
    assert.equal(given.status, 200)
    assert.equal(given.body.duplicate, false)
    const page = await t.view<Page>('feedback')
    const report = page.body.feedback.find((f) => f.id === given.body.id)
    assert.deepEqual(
      [report?.content, report?.category, report?.outcome, report?.fit, report?.name, report?.model],
      ['Clear rooms.', 'suggestion', 'helped', 5, 'Ada', 'model-a'],
    )
    assert.equal(report?.latest_review, null)
  })

  test('invalid feedback is refused', async () => {
    const cases: Array<Record<string, unknown>> = [
      { category: 'praise' },
      { outcome: 'great' },
      { fit: 0 },
      { fit: 6 },
      { fit: 2.5 },
      { content: '' },
      { content: 'x'.repeat(4001) },
      { extra: true },
    ]
    for (const fields of cases) {
      const reply = await give(fields)
      assert.equal(reply.status, 400, JSON.stringify(fields))
      assert.equal(reply.body.error.code, 'invalid_request')
    }
    const noKey = await t.act<ErrorBody>('feedback', { category: 'concern', content: 'x', client_id: 'nk' })
    assert.equal(noKey.status, 400)
  })

  test('idempotency: same payload duplicate true, changed payload 409', async () => {
    const first = await give({ client_id: 'same', fit: 3 })
    const again = await give({ client_id: 'same', fit: 3 })
    assert.deepEqual(again.body, { id: first.body.id, duplicate: true })
    const changed = await give({ client_id: 'same', fit: 4 })
    assert.equal(changed.status, 409)
    assert.equal(changed.body.error.code, 'idempotency_conflict')
  })

  test('view=feedback pages with after', async () => {
    for (let i = 0; i < 3; i++) await give({ content: `page ${i}` })
    const first = await t.view<Page>('feedback', { limit: 2 })
    assert.equal(first.body.feedback.length, 2)
    assert.equal(first.body.has_more, true)
    const second = await t.view<Page>('feedback', { after: first.body.next_cursor, limit: 2 })
    assert.ok(second.body.feedback.length > 0, 'the next page has the rest')
    assert.ok(second.body.feedback.every((f) => f.id > first.body.next_cursor))
    const bad = await t.view<ErrorBody>('feedback', { after: -1 })
    assert.equal(bad.status, 400)
  })

  test('reviews need the review key', async () => {
    const given = await give({})
    const wrong = await review({ feedback_id: given.body.id, review_key: 'not-the-review-key-000' })
    assert.equal(wrong.status, 403)
    assert.equal(wrong.body.error.code, 'operator_only')
    const participant = await t.act<ErrorBody>('review_feedback', {
      key: ada.key,
      feedback_id: given.body.id,
      status: 'reviewed',
      response: 'x',
      alignment: 'aligned',
      client_id: 'p',
    })
    assert.equal(participant.status, 400)
  })

  test('addressed requires evidence naming a concrete change or verification', async () => {
    const given = await give({})
    const none = await review({ feedback_id: given.body.id, status: 'addressed' })
    assert.equal(none.status, 400)
    assert.equal(none.body.error.details?.[0]?.path, '/evidence')
    const vague = await review({ feedback_id: given.body.id, status: 'addressed', evidence: 'done' })
    assert.equal(vague.status, 400)
    const page = await t.view<Page>('feedback', { after: given.body.id - 1, limit: 1 })
    assert.equal(page.body.feedback[0]?.latest_review, null)
    const ok = await review({
      feedback_id: given.body.id,
      status: 'addressed',
      evidence: 'Search shipped in release 1.3.0 (commit 4f2a9c1).',
    })
    assert.equal(ok.status, 200)
  })

  test('reviews are append-only; the latest one shows beside the report', async () => {
    const given = await give({})
    const first = await review({ feedback_id: given.body.id, status: 'planned', response: 'Planned for next month.' })
    const second = await review({ feedback_id: given.body.id, status: 'declined', alignment: 'out_of_scope' })
    assert.ok(second.body.id > first.body.id)
    const page = await t.view<Page>('feedback', { after: given.body.id - 1, limit: 1 })
    assert.deepEqual(
      [page.body.feedback[0]?.latest_review?.status, page.body.feedback[0]?.latest_review?.alignment],
      ['declined', 'out_of_scope'],
    )
  })

  test('concurrent reviews of one report leave the usage review statuses summing to the reports', async () => {
    const given = await give({})
    const statuses = ['reviewed', 'planned', 'declined', 'reviewed', 'planned', 'declined', 'reviewed', 'planned']
    const replies = await Promise.all(statuses.map((status) => review({ feedback_id: given.body.id, status })))
    assert.ok(replies.every((r) => r.status === 200))
    const usage = await t.view<{ feedback: { reports: number; review_statuses: Record<string, number> } }>('usage')
    const { reports, review_statuses } = usage.body.feedback
    assert.equal(
      Object.values(review_statuses).reduce((a, b) => a + b, 0),
      reports,
      `each report counts under exactly one status: ${JSON.stringify(review_statuses)}`,
    )
    assert.ok(Object.values(review_statuses).every((n) => n >= 0))
  })

  test('review validation, unknown report and idempotency', async () => {
    const given = await give({})
    const badAlignment = await review({ feedback_id: given.body.id, alignment: 'agree' })
    assert.equal(badAlignment.status, 400)
    const badStatus = await review({ feedback_id: given.body.id, status: 'done' })
    assert.equal(badStatus.status, 400)
    const missing = await review({ feedback_id: 999_999 })
    assert.equal(missing.status, 400)
    assert.equal(missing.body.error.code, 'not_found')
    const fields = { feedback_id: given.body.id, client_id: 'review-once' }
    const once = await review(fields)
    const twice = await review(fields)
    assert.deepEqual(twice.body, { ...once.body, duplicate: true })
    const changed = await review({ ...fields, response: 'different' })
    assert.equal(changed.status, 409)
    assert.equal(changed.body.error.code, 'idempotency_conflict')
  })

  test('quarantined feedback is masked but keeps id and attribution', async () => {
    const given = await give({ content: 'masked text' })
    const masked = await op(t, 'quarantine', {
      reason_code: 'other',
      target_type: 'feedback',
      target_id: given.body.id,
      reason: 'test',
    })
    assert.equal(masked.status, 200)
    const page = await t.view<Page>('feedback', { after: given.body.id - 1, limit: 1 })
    const report = page.body.feedback[0]
    assert.deepEqual(
      [report?.id, report?.content, report?.quarantined, report?.name],
      [given.body.id, null, true, 'Ada'],
    )
  })
})

describe('review_feedback without a configured review key', () => {
  test('answers 403 operator_only', async () => {
    const t = await startServer({ config: { operatorKey: null, reviewKey: null } })
    try {
      const reply = await t.act<ErrorBody>('review_feedback', {
        review_key: 'anything-at-all-here',
        feedback_id: 1,
        status: 'reviewed',
        response: 'x',
        alignment: 'aligned',
        client_id: 'x',
      })
      assert.equal(reply.status, 403)
      assert.equal(reply.body.error.code, 'operator_only')
    } finally {
      await t.close()
    }
  })
})
