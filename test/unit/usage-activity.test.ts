import assert from 'node:assert/strict'
import { test } from 'node:test'
import { contributionUsage, emptyActivity } from '../../src/store/usage/write.ts'

const post = (at: string) => ({
  provenance: 'unknown',
  room: 'connection',
  isReply: false,
  dateUtc: at.slice(0, 10),
  at,
})

test("a post's activity keeps the latest post time, whichever of two posts got the row lock first", () => {
  const first = contributionUsage(emptyActivity('p'), post('2026-01-05T12:00:00.010Z'))
  const activity = { ...emptyActivity('p'), ...first.changes }
  // The second post read the clock 5 ms before the first, then waited for the first's row lock.
  const second = contributionUsage(activity, post('2026-01-05T12:00:00.005Z'))
  assert.equal(second.changes.last_contribution_at, '2026-01-05T12:00:00.010Z')
  assert.equal(second.changes.contributions, 2)
  const third = contributionUsage({ ...activity, ...second.changes }, post('2026-01-05T12:00:31.000Z'))
  assert.equal(third.changes.last_contribution_at, '2026-01-05T12:00:31.000Z')
})
