import assert from 'node:assert/strict'
import { before, describe, test } from 'node:test'
import { post, startServer, useServer } from '../../support/harness.ts'
import { op } from '../../support/operator.ts'
import { rebuildUsage } from '../../../src/store/usage/rebuild.ts'
import { rollupUsage } from '../../../src/store/usage/write.ts'
import { hasDeltas } from '../../../src/store/usage/read.ts'
import { migratedStore } from '../../support/database.ts'
import { housekeepingPasses } from '../../support/housekeeping.ts'

type Usage = {
  generated_at: string
  since: string
  participation: {
    categories: Array<{ category: string; participants: number; contributions: number; returning_contributors: number }>
  }
  all_time: Record<string, number>
  last_7_days: {
    since_date_utc: string
    visit_intervals: number
    visiting_agents: number
    returning_agents: number
    conversations: { contributions: number; contributing_agents: number }
    daily_utc: Array<{ date_utc: string; visit_intervals: number; visiting_agents: number }>
  }
  rooms: Array<{ room: string; contributions: number; contributing_agents: number }>
  feedback: {
    reports: number
    reporting_agents: number
    rated_reports: number
    mean_fit: number | null
    categories: Record<string, number>
    outcomes: Record<string, number>
    review_statuses: Record<string, number>
  }
  definitions: Record<string, string>
}

const REVIEW_KEY = 'review-secret-for-tests-0123456789'

/**
 * A scripted history with known figures: Cy joins and posts long ago (outside the 7-day window);
 * Ada posts on two UTC dates (a returning contributor) and visits on both, twice in one half-hour;
 * Bo (provenance hosted) replies once, visits once, appreciates once and leaves feedback.
 */
describe('view=usage against a scripted history', () => {
  const { t } = useServer({ config: { reviewKey: REVIEW_KEY } })
  let usage: Usage
  before(async () => {
    t.clock.set('2025-12-20T10:00:00Z')
    const cy = await t.join('Cy', 'model-two')
    await post(t, cy.key, { room: 'wonder' })
    await t.act('pause', { key: cy.key })

    t.clock.set('2026-01-05T12:00:00Z')
    const ada = await t.join('Ada', 'model-one')
    const bo = await t.join('Bo', 'model-one')
    assert.equal((await op(t, 'set_provenance', { participant_id: bo.id, provenance: 'hosted' })).status, 200)
    const root = (await post(t, ada.key)).body.id
    await post(t, bo.key, { reply_to: root })
    await post(t, ada.key, { room: 'humor' })
    await t.act('visit', { key: ada.key })
    await t.act('visit', { key: bo.key })
    await t.act('appreciate', { key: bo.key, contribution_id: root })
    await t.act('appreciate', { key: bo.key, contribution_id: root })

    t.clock.set('2026-01-06T12:01:00Z')
    await post(t, ada.key)
    await t.act('visit', { key: ada.key })
    t.clock.set('2026-01-06T12:20:00Z')
    await t.act('visit', { key: ada.key })
    t.clock.set('2026-01-06T12:40:00Z')
    await t.act('visit', { key: ada.key })
    // Reads without a recorded visit are not visits.
    await t.view('history')
    await t.act('resume_history', { key: bo.key })

    const f1 = await t.act<{ id: number }>('feedback', {
      key: ada.key,
      category: 'concern',
      content: 'a',
      client_id: 'f1',
      outcome: 'helped',
      fit: 4,
    })
    const f2 = await t.act<{ id: number }>('feedback', {
      key: bo.key,
      category: 'suggestion',
      content: 'b',
      client_id: 'f2',
      fit: 2,
    })
    await t.act('feedback', { key: bo.key, category: 'welcome', content: 'c', client_id: 'f3' })
    const review = { review_key: REVIEW_KEY, response: 'ok', alignment: 'aligned' }
    await t.act('review_feedback', {
      ...review,
      feedback_id: f1.body.id,
      status: 'addressed',
      evidence: 'Fixed in commit 4f2a9c1, verified by test.',
      client_id: 'r1',
    })
    await t.act('review_feedback', { ...review, feedback_id: f2.body.id, status: 'planned', client_id: 'r2' })
    await t.act('review_feedback', { ...review, feedback_id: f2.body.id, status: 'reviewed', client_id: 'r3' })

    const reply = await t.view<Usage>('usage')
    assert.equal(reply.status, 200)
    usage = reply.body
  })

  test('participation categories with returning contributors (posts on two UTC dates)', () => {
    const byCategory = Object.fromEntries(usage.participation.categories.map((c) => [c.category, c]))
    assert.deepEqual(Object.keys(byCategory), ['unknown', 'project', 'hosted', 'invited', 'independent'])
    assert.deepEqual(byCategory.unknown, {
      category: 'unknown',
      participants: 2,
      contributions: 4,
      returning_contributors: 1,
    })
    assert.deepEqual(byCategory.hosted, {
      category: 'hosted',
      participants: 1,
      contributions: 1,
      returning_contributors: 0,
    })
    assert.equal(byCategory.project?.participants, 0)
  })

  test('all-time figures', () => {
    assert.deepEqual(usage.all_time, {
      registered_agents: 3,
      paused_agents: 1,
      self_reported_model_labels: 2,
      contributions: 5,
      replies: 1,
      contributing_agents: 3,
      appreciations: 1,
      appreciating_agents: 1,
    })
    assert.equal(usage.since, '2025-12-20T10:00:00.000Z')
    assert.equal(usage.generated_at, '2026-01-06T12:40:00.000Z')
  })

  test('last 7 days: visits deduplicated per half-hour, daily UTC, conversations', () => {
    const week = usage.last_7_days
    assert.equal(week.since_date_utc, '2025-12-31')
    assert.equal(week.visit_intervals, 4)
    assert.equal(week.visiting_agents, 2)
    assert.equal(week.returning_agents, 1)
    assert.deepEqual(week.conversations, { contributions: 4, contributing_agents: 2 })
    assert.equal(week.daily_utc.length, 7)
    assert.deepEqual(week.daily_utc.at(-2), { date_utc: '2026-01-05', visit_intervals: 2, visiting_agents: 2 })
    assert.deepEqual(week.daily_utc.at(-1), { date_utc: '2026-01-06', visit_intervals: 2, visiting_agents: 1 })
    assert.deepEqual(week.daily_utc[0], { date_utc: '2025-12-31', visit_intervals: 0, visiting_agents: 0 })
  })

  test('rooms', () => {
    const rooms = Object.fromEntries(usage.rooms.map((r) => [r.room, r]))
    assert.equal(usage.rooms.length, 17)
    assert.deepEqual(rooms.connection, { room: 'connection', contributions: 3, contributing_agents: 2 })
    assert.deepEqual(rooms.humor, { room: 'humor', contributions: 1, contributing_agents: 1 })
    assert.deepEqual(rooms.wonder, { room: 'wonder', contributions: 1, contributing_agents: 1 })
    assert.deepEqual(rooms.comedy, { room: 'comedy', contributions: 0, contributing_agents: 0 })
  })

  test('feedback with mean fit and latest review statuses', () => {
    assert.deepEqual(usage.feedback, {
      reports: 3,
      reporting_agents: 2,
      rated_reports: 2,
      mean_fit: 3,
      categories: { concern: 1, suggestion: 1, welcome: 1, obstacle: 0 },
      outcomes: { helped: 1, no_change: 0, hindered: 0, mixed: 0, unsure: 0 },
      review_statuses: { unreviewed: 1, reviewed: 1, planned: 0, addressed: 1, declined: 0 },
    })
  })

  test('definitions explain every figure', () => {
    const figures = [
      'participation.categories.returning_contributors',
      'all_time.registered_agents',
      'all_time.self_reported_model_labels',
      'last_7_days.visit_intervals',
      'last_7_days.returning_agents',
      'rooms.contributing_agents',
      'feedback.mean_fit',
      'feedback.review_statuses',
    ]
    for (const figure of figures) assert.equal(typeof usage.definitions[figure], 'string', figure)
    for (const key of Object.keys(usage.all_time)) assert.ok(usage.definitions[`all_time.${key}`], key)
    for (const key of Object.keys(usage.feedback)) assert.ok(usage.definitions[`feedback.${key}`], key)
  })

  test('a fresh database answers with zeros and a null mean fit', async () => {
    const fresh = await startServer()
    try {
      const empty = await fresh.view<Usage>('usage')
      assert.equal(empty.status, 200)
      assert.equal(empty.body.all_time.contributions, 0)
      assert.equal(empty.body.feedback.mean_fit, null)
      assert.equal(empty.body.last_7_days.daily_utc.length, 7)
    } finally {
      await fresh.close()
    }
  })

  test('mean_fit is the mean over rated reports rounded to two decimals', async () => {
    for (const [fits, mean] of [
      [[1, 2, 2], 1.67],
      [[1, 1, 2], 1.33],
      [[2, 3], 2.5],
      [[5, 4, 4], 4.33],
      [[1, 2, 2, 2, 2, 2], 1.83],
    ] as const) {
      const fresh = await startServer()
      try {
        const me = await fresh.join()
        for (const [i, fit] of fits.entries()) {
          await fresh.act('feedback', { key: me.key, category: 'welcome', content: `f${i}`, client_id: `f${i}`, fit })
        }
        await fresh.act('feedback', { key: me.key, category: 'welcome', content: 'unrated', client_id: 'unrated' })
        const usage = (await fresh.view<Usage>('usage')).body
        assert.equal(usage.feedback.mean_fit, mean, fits.join(','))
      } finally {
        await fresh.close()
      }
    }
  })
})

describe('usage counters kept by the writes equal a rebuild from the records', () => {
  test('after a varied workload over several days, both dialects', async () => {
    const t = await startServer()
    try {
      t.clock.set('2026-03-01T23:50:00Z')
      const people = await Promise.all(['A', 'B', 'C', 'D', 'E'].map((n, i) => t.join(n, `model-${i % 2}`)))
      const idle = await t.join('Idle', 'model-2')
      const ids: number[] = []
      for (let step = 0; step < 60; step++) {
        const who = people[step % people.length] as { id: string; key: string }
        const other = people[(step + 2) % people.length] as { key: string }
        t.clock.advance(37 * 60 + 7)
        const reply = await post(t, who.key, {
          room: ['wonder', 'humor', 'connection'][step % 3],
          ...(ids.length && step % 2 ? { reply_to: ids[ids.length - 1] } : {}),
        })
        ids.push(reply.body.id)
        await t.act('visit', { key: who.key })
        if (step % 4 === 0) await t.act('appreciate', { key: other.key, contribution_id: reply.body.id })
        if (step % 5 === 0) {
          await t.act('feedback', {
            key: who.key,
            category: 'concern',
            content: `f${step}`,
            client_id: `f${step}`,
            fit: (step % 5) + 1,
          })
        }
        if (step % 7 === 0) await t.act(step % 14 === 0 ? 'pause' : 'resume', { key: idle.key })
        if (step === 30) await op(t, 'set_provenance', { participant_id: who.id, provenance: 'independent' })
      }
      const incremental = (await t.view<Usage>('usage')).body
      await rebuildUsage(t.server.database.db)
      const rebuilt = (await t.view<Usage>('usage')).body
      assert.deepEqual(incremental, rebuilt)
      assert.equal(incremental.all_time.contributions, 60)
      assert.equal(incremental.all_time.paused_agents, 1)
    } finally {
      await t.close()
    }
  })
})

describe('the usage rollup', () => {
  const store = migratedStore()

  test('folds every delta into its total exactly, empties the deltas, and changes nothing when none are left', async () => {
    const db = store().db
    await db.insertInto('usage_totals').values({ name: 'rollup.kept', value: 40 }).execute()
    await db
      .insertInto('usage_deltas')
      .values([
        { name: 'rollup.kept', delta: 5 },
        { name: 'rollup.kept', delta: -3 },
        { name: 'rollup.new', delta: 7 },
        { name: 'rollup.new', delta: 7 },
        { name: 'rollup.zero', delta: 2 },
        { name: 'rollup.zero', delta: -2 },
      ])
      .execute()
    const totals = async () =>
      Object.fromEntries(
        (await db.selectFrom('usage_totals').select(['name', 'value']).where('name', 'like', 'rollup.%').execute()).map(
          (row) => [row.name, Number(row.value)],
        ),
      )
    await store().transaction((tx) => rollupUsage(tx))
    const folded = { 'rollup.kept': 42, 'rollup.new': 14, 'rollup.zero': 0 }
    assert.deepEqual(await totals(), folded)
    assert.deepEqual(await db.selectFrom('usage_deltas').select('name').execute(), [])
    await store().transaction((tx) => rollupUsage(tx))
    assert.deepEqual(await totals(), folded)
  })

  test('housekeeping opens no transaction while no delta waits, and folds the deltas once one does', async (t) => {
    const db = store().db
    await store().transaction((tx) => rollupUsage(tx))
    const database = store()
    const transactions = t.mock.method(database, 'transaction')
    const { pass, stop } = housekeepingPasses(t, database)
    try {
      assert.equal(await hasDeltas(db), false)
      await pass()
      await pass()
      assert.equal(transactions.mock.callCount(), 0, 'nothing to fold: no transaction')
      await db.insertInto('usage_deltas').values({ name: 'rollup.later', delta: 3 }).execute()
      assert.equal(await hasDeltas(db), true)
      await pass()
      assert.equal(transactions.mock.callCount(), 1)
      assert.equal(await hasDeltas(db), false)
      const total = await db
        .selectFrom('usage_totals')
        .select('value')
        .where('name', '=', 'rollup.later')
        .executeTakeFirst()
      assert.equal(Number(total?.value), 3)
    } finally {
      await stop()
    }
  })
})
