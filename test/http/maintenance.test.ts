import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { after, before, describe, test } from 'node:test'
import { promisify } from 'node:util'
import { ManualClock } from '../../src/core/clock.ts'
import { listAlerts } from '../../src/store/outbox.ts'
import { sharedDatabase, startServer, type TestServer } from '../support/harness.ts'
import { findDraft, op, OPERATOR_KEY, postDraft, submit } from '../support/operator.ts'

const DAY = 86_400
const run = promisify(execFile)

interface Report {
  expired_drafts: number
  reconciled_publications: number
  deleted_abuse_rows: number
  deleted_notifications: number
}

describe('maintenance', () => {
  let shared: { url: string; drop(): Promise<void> }
  let a: TestServer
  let b: TestServer
  const clock = new ManualClock('2026-03-01T10:00:00.000Z')
  before(async () => {
    shared = await sharedDatabase()
    // Two instances on one database, as when several servers run maintenance at the same moment.
    a = await startServer({ databaseUrl: shared.url, clock, config: { maintenanceIntervalSeconds: 0 } })
    b = await startServer({ databaseUrl: shared.url, clock, config: { maintenanceIntervalSeconds: 0 } })
  })
  after(async () => {
    await a.close()
    await b.close()
    await shared.drop()
  })

  const maintain = (t: TestServer) => op<Report>(t, 'run_maintenance')
  const bothAtOnce = async () => {
    const [x, y] = await Promise.all([maintain(a), maintain(b)])
    assert.equal(x.status, 200)
    assert.equal(y.status, 200)
    return (field: keyof Report) => x.body[field] + y.body[field]
  }
  const abuseDays = async () =>
    (await a.server.database.db.selectFrom('abuse_buckets').select('day').execute()).map((r) => r.day)

  test('pending drafts expire after 30 days and lose their text, once, with two instances at once', async () => {
    const old = postDraft({ public_status: true })
    const sent = await submit<{ public_ref: string }>(a, old)
    const oldPrivate = postDraft()
    await submit(a, oldPrivate)
    clock.advance(29 * DAY)
    const young = postDraft()
    await submit(a, young)
    assert.equal((await maintain(a)).body.expired_drafts, 0, 'nothing is 30 days old yet')
    clock.advance(DAY + 60 - 6)
    const total = await bothAtOnce()
    assert.equal(total('expired_drafts'), 2, 'each draft expired exactly once across both instances')
    for (const body of [old, oldPrivate]) {
      const draft = await findDraft(a, String(body.client_id), 'expired')
      assert.equal(draft.payload, null, 'text removed')
    }
    assert.equal((await findDraft(a, String(young.client_id))).state, 'pending')
    const state = await a.get<{ drafts: Array<{ state: string }> }>(`/api/drafts?public_ref=${sent.body.public_ref}`)
    assert.equal(state.body.drafts[0]?.state, 'expired')
    const publish = await op(a, 'publish_draft', {
      draft_id: (await findDraft(a, String(old.client_id), 'expired')).draft_id,
    })
    assert.equal(publish.status, 409, 'an expired draft cannot be published')
  })

  test('metadata of notifications sent more than 30 days ago is deleted; undelivered alerts are kept', async () => {
    clock.advance(DAY)
    await submit(a, postDraft())
    await a.server.database.settled()
    const old = await listAlerts(a.server.database.db)
    assert.ok(old.length >= 1 && old.every((o) => o.sent_at !== null), 'drafts queued alerts, delivered (logged)')
    // An alert no delivery ever succeeded for, queued as long ago as the others.
    await a.server.database.db
      .insertInto('alert_outbox')
      .values({
        id: 1_000_000,
        kind: 'report',
        reference: 'never-delivered',
        dedupe_key: 'report:never-delivered',
        created_at: clock.now().toISOString(),
        claimed_at: null,
        sent_at: null,
        attempts: 7,
      })
      .execute()
    clock.advance(31 * DAY)
    await submit(a, postDraft())
    await a.server.database.settled()
    const total = await bothAtOnce()
    assert.equal(total('deleted_notifications'), old.length, 'each old sent alert deleted once')
    const left = await listAlerts(a.server.database.db)
    assert.ok(!left.some((r) => old.some((o) => o.id === r.id)))
    assert.ok(
      left.some((r) => r.reference === 'never-delivered'),
      'an alert that was never delivered is kept, however old',
    )
  })

  test('abuse buckets live two days', async () => {
    await a.act('join', { name: 'bucketed', model: 'm' })
    const today = clock.now().toISOString().slice(0, 10)
    assert.ok((await abuseDays()).includes(today))
    clock.advance(DAY)
    await bothAtOnce()
    assert.ok((await abuseDays()).includes(today), 'yesterday stays')
    clock.advance(DAY)
    const total = await bothAtOnce()
    assert.ok(total('deleted_abuse_rows') >= 1, 'bucket deleted')
    assert.ok(!(await abuseDays()).includes(today))
  })

  test('an interrupted publication keeps its text until maintenance reconciles it', async () => {
    const db = a.server.database.db
    const finished = postDraft()
    await submit(a, finished)
    const draft = await findDraft(a, String(finished.client_id))
    const published = await op<{ post_id: number }>(a, 'publish_draft', { draft_id: draft.draft_id })
    // Simulate a publication that stopped after the post and state but before the text was cleared.
    await db.updateTable('drafts').set({ payload: '{"content":"left"}' }).where('id', '=', draft.draft_id).execute()
    const unfinished = postDraft()
    await submit(a, unfinished)
    const half = await findDraft(a, String(unfinished.client_id))
    await db.updateTable('drafts').set({ state: 'published' }).where('id', '=', half.draft_id).execute()
    const total = await bothAtOnce()
    assert.equal(total('reconciled_publications'), 2)
    const done = await findDraft(a, String(finished.client_id), 'published')
    assert.equal(done.payload, null)
    assert.equal(done.post_id, published.body.post_id)
    const reopened = await findDraft(a, String(unfinished.client_id))
    assert.equal(reopened.state, 'pending', 'no post was made, so it goes back to review with its text')
    assert.ok(reopened.payload)
  })
})

describe('maintenance timer and commands', () => {
  test('the in-server timer runs maintenance', async () => {
    const clock = new ManualClock('2026-03-01T10:00:00.000Z')
    const t = await startServer({ clock, config: { maintenanceIntervalSeconds: 1 } })
    try {
      const body = postDraft()
      await submit(t, body)
      clock.advance(31 * DAY)
      let state = 'pending'
      for (let i = 0; i < 30 && state === 'pending'; i++) {
        await new Promise((resolve) => setTimeout(resolve, 100))
        const list = await op<{ drafts: Array<{ client_id: string }> }>(t, 'list_drafts', { state: 'expired' })
        if (list.body.drafts.some((d) => d.client_id === body.client_id)) state = 'expired'
      }
      assert.equal(state, 'expired')
    } finally {
      await t.close()
    }
  })

  test('npm run operator drives the operator API over HTTP with OPERATOR_KEY from the environment', async () => {
    const t = await startServer()
    try {
      const env = { ...process.env, PUBLIC_BASE_URL: t.url, OPERATOR_KEY, DATABASE_URL: 'sqlite::memory:' }
      const out = await run(
        process.execPath,
        ['src/main.ts', 'operator', 'pause_writes', '--json', '{"reason":"cli"}'],
        {
          env,
        },
      )
      assert.deepEqual(JSON.parse(out.stdout), { writes_paused: true })
      const refused = await run(process.execPath, ['src/main.ts', 'operator', 'resume_writes'], {
        env: { ...env, OPERATOR_KEY: 'not-the-operator-key-zuWTBcx9UGVGNbb7aYp7' },
      }).catch((err: { code: number; stdout: string }) => err)
      assert.equal((refused as { code: number }).code, 1)
      await run(process.execPath, ['src/main.ts', 'operator', 'resume_writes'], { env })
      const log = await op<{ entries: Array<{ action: string; reason: string | null }> }>(t, 'list_audit_log')
      assert.deepEqual(log.body.entries.map((e) => e.action).slice(0, 2), ['pause_writes', 'resume_writes'])
    } finally {
      await t.close()
    }
  })
})
