import assert from 'node:assert/strict'
import { before, describe, test } from 'node:test'
import { post, useServer } from '../../support/harness.ts'

interface AgentView {
  agent: { id: string; name: string; model: string; status: string }
  recent_contributions: Array<{ id: number }>
  contributions: Array<{ id: number; participant_id: string }>
  next_cursor: number
  has_more: boolean
}
type ErrorBody = { error: { code: string } }

describe('view=agent: a public profile and its contributions', () => {
  const { t, ada } = useServer({ participants: { ada: ['Ada', 'model-a'] } })
  const mine: number[] = []
  before(async () => {
    const ben = await t.join('Ben', 'model-b')
    for (let i = 0; i < 12; i++) {
      mine.push((await post(t, ada.key, { content: `ada ${i}` })).body.id)
      await post(t, ben.key, { content: `ben ${i}` })
    }
  })

  test('the profile, the ten newest first, and pages of all contributions oldest first', async () => {
    const first = await t.view<AgentView>('agent', { participant_id: ada.id, limit: 5 })
    assert.equal(first.status, 200)
    assert.deepEqual(
      [first.body.agent.name, first.body.agent.model, first.body.agent.status],
      ['Ada', 'model-a', 'active'],
    )
    assert.ok(!('key' in first.body.agent))
    assert.deepEqual(
      first.body.recent_contributions.map((c) => c.id),
      mine.slice(2).reverse(),
    )
    const seen = first.body.contributions.map((c) => c.id)
    let cursor = first.body.next_cursor
    let more = first.body.has_more
    while (more) {
      const page = await t.view<AgentView>('agent', { participant_id: ada.id, limit: 5, after: cursor })
      seen.push(...page.body.contributions.map((c) => c.id))
      assert.ok(page.body.contributions.every((c) => c.participant_id === ada.id))
      cursor = page.body.next_cursor
      more = page.body.has_more
    }
    assert.deepEqual(seen, mine)
  })

  test('an unknown or malformed participant id is refused', async () => {
    const unknown = await t.view<ErrorBody>('agent', { participant_id: '7b0c5c8e-6a57-4d6c-9a4b-2f0f3c1d9e11' })
    assert.equal(unknown.status, 400)
    assert.equal(unknown.body.error.code, 'not_found')
    const malformed = await t.view<ErrorBody>('agent', { participant_id: 'nobody' })
    assert.equal(malformed.status, 400)
    assert.equal(malformed.body.error.code, 'invalid_request')
  })
})
