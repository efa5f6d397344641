import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import { after, before, describe, test } from 'node:test'
import { promisify } from 'node:util'
import { sql } from 'kysely'
import { ManualClock } from '../../../src/services/clock.ts'
import { maintainOnce } from '../../../src/core/maintenance-timer.ts'
import { listAlerts } from '../../../src/store/operator/read.ts'
import { dialect, freshDatabase, type TestDatabase } from '../../support/database.ts'
import { post, sharedDatabase, startServer, type TestServer } from '../../support/harness.ts'
import { learn, record, saved } from '../../support/learning.ts'
import { eraseName, findDraft, op, OPERATOR_KEY, postDraft, submit } from '../../support/operator.ts'

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
        ['src/main.ts', 'operator', 'pause_writes', '--json', '{"reason":"cli"}', '--reason-code', 'spam'],
        { env },
      )
      assert.deepEqual(JSON.parse(out.stdout), { writes_paused: true, moderation_id: 1 })
      // Without a terminal to ask on, a moderation action without a reason code stops before sending.
      const unasked = await run(process.execPath, ['src/main.ts', 'operator', 'resume_writes'], { env }).catch(
        (err: { code: number; stderr: string }) => err,
      )
      assert.equal((unasked as { code: number }).code, 1)
      assert.match((unasked as { stderr: string }).stderr, /--reason-code CODE \(one of spam, harassment/)
      const refused = await run(
        process.execPath,
        ['src/main.ts', 'operator', 'resume_writes', '--reason-code', 'other'],
        {
          env: { ...env, OPERATOR_KEY: 'not-the-operator-key-zuWTBcx9UGVGNbb7aYp7' },
        },
      ).catch((err: { code: number; stdout: string }) => err)
      assert.equal((refused as { code: number }).code, 1)
      await run(process.execPath, ['src/main.ts', 'operator', 'resume_writes', '--reason-code', 'other'], { env })
      const log = await op<{ entries: Array<{ action: string; reason: string | null }> }>(t, 'list_audit_log')
      assert.deepEqual(log.body.entries.map((e) => e.action).slice(0, 2), ['pause_writes', 'resume_writes'])
    } finally {
      await t.close()
    }
  })
})

/**
 * Erased text must leave the database's files, not only its answers. PostgreSQL keeps an updated row's
 * old version in the table's pages until VACUUM; on a database of its own, since what VACUUM may remove
 * depends on every transaction open in the database.
 */
describe('erased text after maintenance', () => {
  let database: TestDatabase
  let t: TestServer
  before(async () => {
    database = await freshDatabase({ file: true, own: true })
    t = await startServer({ databaseUrl: database.url, config: { maintenanceIntervalSeconds: 0 } })
  })
  after(async () => {
    await t.close()
    await database.drop()
  })

  /** The database's files that hold the text: SQLite's file and its log, PostgreSQL's relations. */
  const filesHolding = async (text: string): Promise<string[]> => {
    if (dialect === 'sqlite') {
      const path = database.url.slice('sqlite:'.length)
      return [path, `${path}-wal`].filter((file) => existsSync(file) && readFileSync(file).includes(text))
    }
    const { db } = t.server.database
    // Written out of shared buffers first, so the files hold what the pages do.
    await sql`checkpoint`.execute(db)
    const { rows } = await sql<{ relname: string }>`
      select relname from pg_class
      where relkind in ('r', 't', 'i', 'm') and not relisshared
        and position(convert_to(${text}, 'UTF8') in pg_read_binary_file(pg_relation_filepath(oid), 0, pg_relation_size(oid), true)) > 0
    `.execute(db)
    return rows.map((row) => row.relname)
  }

  /** A rejected draft's text, an erased name and a withdrawn lesson, each holding the marker. */
  const erase = async (marker: string) => {
    const draft = postDraft({ content: `A draft that is turned down: ${marker}` })
    await submit(t, draft)
    const { draft_id } = await findDraft(t, String(draft.client_id))
    assert.equal((await op(t, 'reject_draft', { draft_id, reason: 'off-topic' })).status, 200)
    const me = await t.join(`Named ${marker}`, 'm')
    const decided = await eraseName(t, me.id, `participant ${me.id}`)
    assert.equal(decided.status, 200)
    const source = await post(t, me.key)
    const { record_id } = await saved(t, record(me.key, [source.body.id], { lesson: `Learned: ${marker}` }))
    assert.equal((await learn(t, 'withdraw_learning', { key: me.key, record_id })).status, 200)
    assert.notDeepEqual(await filesHolding(marker), [], 'the files held the text before maintenance')
  }

  const passes: Array<[string, () => Promise<unknown>]> = [
    ['run_maintenance', () => op(t, 'run_maintenance').then(() => t.server.database.settled())],
    ["the in-server timer's pass", () => maintainOnce(t.server.runtime)],
    [
      'npm run maintenance',
      () =>
        run(process.execPath, ['src/main.ts', 'maintenance'], { env: { ...process.env, DATABASE_URL: database.url } }),
    ],
  ]
  for (const [name, maintain] of passes) {
    test(`a rejected draft's text, an erased name and a withdrawn lesson leave the files after ${name}`, async () => {
      const marker = `Lingering${randomBytes(6).toString('hex')}`
      await erase(marker)
      await maintain()
      assert.deepEqual(await filesHolding(marker), [])
    })
  }
})
