import assert from 'node:assert/strict'
import { setTimeout as sleep } from 'node:timers/promises'
import { after, before, describe, test } from 'node:test'
import { pino } from 'pino'
import { ManualClock } from '../../../src/services/clock.ts'
import { DIGEST_PARTICIPANT, WELCOME_PARTICIPANT } from '../../../src/services/pilot/identities.ts'
import type { PilotReport } from '../../../src/services/pilot/run.ts'
import { runScheduledPilot, startPilotTimer } from '../../../src/core/pilot-timer.ts'
import { post, sharedDatabase, startServer, type TestServer } from '../../support/harness.ts'
import { op } from '../../support/operator.ts'

type Json = Record<string, unknown>
interface Usage {
  participation: { categories: Array<{ category: string; participants: number; contributions: number }> }
  all_time: { contributions: number }
}

describe('the hosted pilot: two instances, one database', () => {
  let shared: { url: string; drop(): Promise<void> }
  let a: TestServer
  let b: TestServer
  const clock = new ManualClock('2026-05-01T04:10:00.000Z')
  const db = () => a.server.database.db
  before(async () => {
    shared = await sharedDatabase()
    a = await startServer({ databaseUrl: shared.url, clock })
    b = await startServer({ databaseUrl: shared.url, clock })
  })
  after(async () => {
    await a.close()
    await b.close()
    await shared.drop()
  })

  /** The schedule on both instances and run_pilot on both, all at once. */
  async function everyoneAtOnce(): Promise<PilotReport[]> {
    const [x, y, p, q] = await Promise.all([
      runScheduledPilot(a.server.runtime),
      runScheduledPilot(b.server.runtime),
      op<PilotReport>(a, 'run_pilot'),
      op<PilotReport>(b, 'run_pilot'),
    ])
    assert.equal(p.status, 200, JSON.stringify(p.body))
    assert.equal(q.status, 200, JSON.stringify(q.body))
    return [x, y, p.body, q.body]
  }
  const pilotRows = () =>
    db()
      .selectFrom('contributions')
      .selectAll()
      .where('participant_id', 'in', [DIGEST_PARTICIPANT.id, WELCOME_PARTICIPANT.id])
      .orderBy('id')
      .execute()

  test('a quiet slot: nothing is posted and no hosted participant appears', async () => {
    const reports = await everyoneAtOnce()
    assert.deepEqual(
      reports.map((r) => r.slot_start),
      Array(4).fill('2026-05-01T02:00:00.000Z'),
    )
    assert.deepEqual(reports.map((r) => r.outcome).sort(), ['already_done', 'already_done', 'already_done', 'quiet'])
    assert.ok(reports.every((r) => r.posts.length === 0))
    assert.equal((await pilotRows()).length, 0)
    const hosted = await db().selectFrom('participants').select('id').where('provenance', '=', 'hosted').execute()
    assert.deepEqual(hosted, [])
    const slot = await db().selectFrom('pilot_slots').selectAll().execute()
    assert.deepEqual(
      slot.map((s) => [s.outcome, Number(s.posts)]),
      [['quiet', 0]],
    )
  })

  test('a slot with activity: one digest with its ids and welcome replies to first-time contributors, once across both instances', async () => {
    clock.set('2026-05-01T06:30:00.000Z')
    const carol = await a.join('Carol', 'model-c')
    const carolFirst = (await post(a, carol.key, { room: 'humor', content: 'first in the morning' })).body.id
    clock.set('2026-05-01T08:20:00.000Z')
    const alice = await b.join('Alice', 'model-a')
    const bob = await a.join('Bob', 'model-b')
    const dave = await a.join('Dave', 'model-d')
    const aliceFirst = (await post(b, alice.key, { room: 'invention', content: 'hello from alice' })).body.id
    const carolAgain = (await post(a, carol.key, { room: 'invention', content: 'back again' })).body.id
    const bobFirst = (await post(a, bob.key, { room: 'invention', content: 'a reply', reply_to: aliceFirst })).body.id
    const daveFirst = (await post(a, dave.key, { content: 'spam spam' })).body.id
    assert.equal(
      (
        await op(a, 'quarantine', {
          reason_code: 'other',
          target_type: 'contribution',
          target_id: daveFirst,
          reason: 'spam',
        })
      ).status,
      200,
    )
    const note = await b.act<{ id: number }>('save_shared_memory', {
      key: alice.key,
      expected_version: 0,
      title: 'n',
      kind: 'story',
      content: 'c',
      source_ids: [aliceFirst],
      reason: 'r',
      client_id: 'note-1',
    })
    // At 08:20 the due slot is 06:00-08:00: Carol's first post, welcomed; the 08:00 posts wait for their slot.
    const morning = await everyoneAtOnce()
    assert.deepEqual(morning.map((r) => r.outcome).sort(), ['already_done', 'already_done', 'already_done', 'posted'])
    const morningPosts = morning.find((r) => r.outcome === 'posted')?.posts ?? []
    assert.deepEqual(
      morningPosts.map((p) => [p.role, p.reply_to]),
      [
        ['digest', null],
        ['welcome', carolFirst],
      ],
    )
    for (const r of morning) assert.deepEqual(r.posts, morningPosts, 'every run reports the same posts')

    clock.set('2026-05-01T10:01:30.000Z')
    const reports = await everyoneAtOnce()
    assert.deepEqual(reports.map((r) => r.outcome).sort(), ['already_done', 'already_done', 'already_done', 'posted'])
    const done = reports.find((r) => r.outcome === 'posted') as PilotReport
    assert.equal(done.slot_start, '2026-05-01T08:00:00.000Z')
    assert.deepEqual(done.activity, { contributions: 3, note_revisions: 1, first_time_contributors: 2 })
    assert.deepEqual(
      done.posts.map((p) => [p.role, p.reply_to]),
      [
        ['digest', null],
        ['welcome', aliceFirst],
        ['welcome', bobFirst],
      ],
    )
    for (const r of reports) assert.deepEqual(r.posts, done.posts)

    const rows = await pilotRows()
    assert.equal(rows.length, 5, 'two runs, each once: 2 digests and 3 welcomes')
    const digest = rows.find((r) => r.client_id === 'pilot:2026-05-01T08:00:00.000Z:digest')
    assert.ok(digest, 'the digest client_id is derived from the slot')
    assert.equal(digest.room, 'progression')
    const text = String(digest.content)
    for (const id of [aliceFirst, carolAgain, bobFirst]) assert.ok(text.includes(`#${id}`), `digest names #${id}`)
    assert.ok(!text.includes(`#${daveFirst}`), 'quarantined posts are left out')
    assert.ok(text.includes(`#${note.body.id}`), 'the note revision is named')
    assert.match(
      text,
      /3 contributions \(1 reply\) by 3 participants in 1 room; 1 shared-note revision; 2 first-time contributors/,
    )
    assert.ok(!text.includes('hello from alice'), 'no participant text is quoted')
  })

  test('the posts are attributed to labelled hosted participants and read like any other', async () => {
    const digestId = (await pilotRows()).at(-3)?.id as number
    const thread = await a.view<{ contributions: Array<Json> }>('thread', { contribution_id: digestId })
    const shown = thread.body.contributions.find((c) => c.id === digestId) as Json
    assert.equal(shown.provenance, 'hosted')
    assert.equal(shown.participant_id, DIGEST_PARTICIPANT.id)
    assert.match(String(shown.provenance_note), /automated participant/)
    assert.match(String(shown.provenance_note), /no model calls/)
    const welcome = (await pilotRows()).at(-1)
    const replies = await a.view<{ contributions: Array<Json> }>('thread', { contribution_id: Number(welcome?.id) })
    const reply = replies.body.contributions.find((c) => c.id === Number(welcome?.id)) as Json
    assert.equal(reply.provenance, 'hosted')
    assert.match(String(reply.provenance_note), /automated participant/)
    assert.match(String(reply.content), /^Welcome to Clearing/)
  })

  test('the pilot counts in usage under hosted and in every total', async () => {
    const usage = (await b.view<Usage>('usage')).body
    const hosted = usage.participation.categories.find((c) => c.category === 'hosted')
    assert.deepEqual([hosted?.participants, hosted?.contributions], [2, 5])
    const all = usage.participation.categories.reduce((s, c) => s + c.contributions, 0)
    assert.equal(usage.all_time.contributions, all)
  })

  test('its own posts are not activity: the next slot is quiet; a slot already done stays done', async () => {
    clock.set('2026-05-01T12:05:00.000Z')
    const reports = await everyoneAtOnce()
    assert.deepEqual(reports.map((r) => r.outcome).sort(), ['already_done', 'already_done', 'already_done', 'quiet'])
    const again = await op<PilotReport>(a, 'run_pilot')
    assert.equal(again.body.outcome, 'already_done')
    assert.equal((await pilotRows()).length, 5)
  })

  test('paused writes stop the pilot without claiming the slot; after resuming it acts', async () => {
    clock.set('2026-05-01T13:00:00.000Z')
    const erin = await a.join('Erin', 'model-e')
    await post(a, erin.key, { content: 'afternoon' })
    clock.set('2026-05-01T14:02:00.000Z')
    assert.equal((await op(a, 'pause_writes', { reason_code: 'other', reason: 'test' })).status, 200)
    const paused = await op<PilotReport>(b, 'run_pilot')
    assert.equal(paused.body.outcome, 'writes_paused')
    assert.equal((await runScheduledPilot(a.server.runtime)).outcome, 'writes_paused')
    const claim = await db()
      .selectFrom('pilot_slots')
      .select('slot')
      .where('slot_start', '=', '2026-05-01T12:00:00.000Z')
    assert.equal((await claim.execute()).length, 0)
    assert.equal((await op(a, 'resume_writes', { reason_code: 'other', reason: 'test' })).status, 200)
    const resumed = await runScheduledPilot(b.server.runtime)
    assert.equal(resumed.outcome, 'posted')
    assert.deepEqual(
      resumed.posts.map((p) => p.role),
      ['digest', 'welcome'],
    )
  })

  test('a suspended hosted participant stays silent; run_pilot is in the audit log', async () => {
    clock.set('2026-05-01T15:00:00.000Z')
    const fay = await a.join('Fay', 'model-f')
    await post(a, fay.key, { content: 'hi' })
    const suspend = await op(a, 'suspend_participant', {
      reason_code: 'other',
      participant_id: WELCOME_PARTICIPANT.id,
      reason: 'quiet please',
    })
    assert.equal(suspend.status, 200)
    clock.set('2026-05-01T16:01:01.000Z')
    const report = await op<PilotReport>(a, 'run_pilot')
    assert.equal(report.body.outcome, 'posted')
    assert.deepEqual(
      report.body.posts.map((p) => p.role),
      ['digest'],
    )
    const log = await op<{ entries: Array<{ action: string }> }>(a, 'list_audit_log', { limit: 200 })
    assert.ok(log.body.entries.some((e) => e.action === 'run_pilot'))
  })
})

describe('the pilot schedule', () => {
  test('PILOT_ENABLED runs the pilot from a timer; stopping waits for a run in progress', async () => {
    const clock = new ManualClock('2026-06-01T09:00:00.000Z')
    const t = await startServer({ clock, config: { pilotEnabled: true } })
    try {
      const gus = await t.join('Gus', 'model-g')
      await post(t, gus.key, { content: 'hello' })
      clock.set('2026-06-01T10:05:00.000Z')
      const stop = startPilotTimer(t.server.runtime, pino({ level: 'silent' }), 10)
      let slots: unknown[] = []
      for (let i = 0; i < 200 && slots.length === 0; i++) {
        await sleep(10)
        slots = await t.server.database.db.selectFrom('pilot_slots').select('slot').execute()
      }
      await stop()
      assert.equal(slots.length, 1)
      const posted = await t.server.database.db
        .selectFrom('contributions')
        .select('id')
        .where('participant_id', '=', DIGEST_PARTICIPANT.id)
        .execute()
      assert.equal(posted.length, 1)
    } finally {
      await t.close()
    }
  })

  test('PILOT_ENABLED=false starts no timer', async () => {
    const t = await startServer({ config: { pilotEnabled: false } })
    try {
      const stop = startPilotTimer(t.server.runtime, pino({ level: 'silent' }), 1)
      await sleep(30)
      await stop()
      assert.deepEqual(await t.server.database.db.selectFrom('pilot_slots').selectAll().execute(), [])
    } finally {
      await t.close()
    }
  })
})
