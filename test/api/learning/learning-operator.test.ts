import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { before, describe, test } from 'node:test'
import { call, example, makeFixture, registry } from '../../support/examples.ts'
import { post, startServer, useServer } from '../../support/harness.ts'
import {
  approve,
  consent,
  exportAll,
  learn,
  mine,
  publicLessons,
  record,
  saved,
  type ErrorBody,
  type Export,
  type PrivateRecord,
} from '../../support/learning.ts'
import { OPERATOR_KEY, op } from '../../support/operator.ts'

const run = promisify(execFile)

describe('learning: operator review, lessons paging, quarantine, export and terms', () => {
  const { t, ann, bob } = useServer({ participants: { ann: ['Ann', 'model-a'], bob: ['Bob', 'model-b'] } })
  let source: number
  /** Bob's contribution, consented by Bob for both purposes. */
  before(async () => {
    source = (await post(t, bob.key)).body.id
    for (const purpose of ['memory', 'research_training'] as const) {
      assert.equal((await consent(t, bob.key, source, purpose, true)).status, 200)
    }
  })

  test('approve answers 409 for a version it did not review, is idempotent, and reject takes a lesson down', async () => {
    const { record_id } = await saved(t, record(ann.key, [source]))
    await saved(t, record(ann.key, [source], { record_id, expected_version: 1 }))
    const stale = await op<ErrorBody>(t, 'approve_learning', { record_id, version: 1 })
    assert.deepEqual([stale.status, stale.body.error.code], [409, 'version_conflict'])
    const first = await approve(t, record_id, 2)
    const again = await approve(t, record_id, 2)
    assert.equal(again.lesson_id, first.lesson_id, 'approving twice draws no second lesson id')
    assert.ok((await publicLessons(t)).some((l) => l.record_id === record_id))

    const rejected = await op(t, 'reject_learning', { record_id, reason: 'off topic' })
    assert.deepEqual(rejected.body, { record_id, version: 2, review: 'rejected', lesson_id: null, public: false })
    assert.ok(!(await publicLessons(t)).some((l) => l.record_id === record_id))
    const unknown = await op<ErrorBody>(t, 'reject_learning', { record_id: '00000000-0000-4000-8000-000000000000' })
    assert.deepEqual([unknown.status, unknown.body.error.code], [400, 'not_found'])

    const audit = await op<{ entries: Array<{ action: string; target: string; reason: string | null }> }>(
      t,
      'list_audit_log',
      { limit: 200 },
    )
    const entry = audit.body.entries.find((e) => e.action === 'reject_learning')
    assert.deepEqual([entry?.target, entry?.reason], [`learning_record:${record_id}`, 'off topic'])
  })

  test('list_learning shows the records with their text to operators, filtered by review', async () => {
    const { record_id } = await saved(t, record(ann.key, [source], { lesson: 'for the queue' }))
    const pending = await op<{ records: PrivateRecord[] }>(t, 'list_learning', { review: 'pending', limit: 200 })
    const found = pending.body.records.find((r) => r.record_id === record_id)
    assert.equal(found?.current.lesson, 'for the queue')
    await approve(t, record_id)
    const approved = await op<{ records: PrivateRecord[] }>(t, 'list_learning', { review: 'approved', limit: 200 })
    assert.ok(approved.body.records.some((r) => r.record_id === record_id))
    const stillPending = await op<{ records: PrivateRecord[] }>(t, 'list_learning', { review: 'pending', limit: 200 })
    assert.ok(!stillPending.body.records.some((r) => r.record_id === record_id))
  })

  test('public lessons page by lesson id: a lesson approved later lands after the reader cursor', async () => {
    const early = await saved(t, record(ann.key, [source], { lesson: 'written first, approved last' }))
    const ids: string[] = []
    for (let i = 0; i < 3; i++)
      ids.push((await saved(t, record(ann.key, [source], { lesson: `paged ${i}` }))).record_id)
    for (const id of ids) await approve(t, id)
    const all = await publicLessons(t)
    const cursor = all.at(-1)?.id ?? 0
    // Walk with limit 1: every lesson once, ids increasing, has_more until the end.
    const seen: number[] = []
    for (let after = 0; ;) {
      const page = await t.get<{ lessons: Array<{ id: number }>; next_cursor: number; has_more: boolean }>(
        `/api/learning?after=${after}&limit=1`,
      )
      seen.push(...page.body.lessons.map((l) => l.id))
      if (!page.body.has_more) {
        assert.equal(page.body.next_cursor, seen.at(-1))
        break
      }
      after = page.body.next_cursor
    }
    assert.deepEqual(
      seen,
      all.map((l) => l.id),
    )
    assert.deepEqual(
      seen,
      [...seen].sort((a, b) => a - b),
    )
    // A record created before the others but approved now is new to a reader at the cursor.
    await approve(t, early.record_id)
    const next = await t.get<{ lessons: Array<{ record_id: string }> }>(`/api/learning?after=${cursor}`)
    assert.deepEqual(
      next.body.lessons.map((l) => l.record_id),
      [early.record_id],
    )
    const empty = await t.get<{ next_cursor: number; has_more: boolean }>(`/api/learning?after=${cursor + 100}`)
    assert.deepEqual([empty.body.next_cursor, empty.body.has_more], [cursor + 100, false])
  })

  test('quarantine masks a lesson in both public reads and keeps it out of the export; release restores it', async () => {
    const canary = 'quarantined-lesson-canary'
    const { record_id } = await saved(t, record(ann.key, [source], { lesson: canary }))
    const { lesson_id } = await approve(t, record_id)
    assert.ok((await exportAll(t)).ids.includes(record_id))
    const masked = await op(t, 'quarantine', {
      reason_code: 'other',
      target_type: 'lesson',
      target_id: lesson_id,
      reason: 'test',
    })
    const entry = (masked.body as { moderation_id: number }).moderation_id
    assert.deepEqual(masked.body, {
      target_type: 'lesson',
      target_id: lesson_id,
      quarantined: true,
      moderation_id: entry,
    })

    const lessons = await publicLessons(t) // asserts both reads agree
    const lesson = lessons.find((l) => l.id === lesson_id)
    assert.deepEqual(
      [lesson?.lesson, lesson?.quarantined, lesson?.name, lesson?.participant_id, lesson?.moderation_id],
      [null, true, 'Ann', ann.id, entry],
    )
    for (const path of ['/api/learning', '/api/clearing?view=lessons']) {
      assert.ok(!JSON.stringify((await t.get(path)).body).includes(canary), `${path} leaks no quarantined text`)
    }
    assert.ok(!(await exportAll(t)).ids.includes(record_id), 'quarantined text is not exported')
    const own = (await mine(t, ann.key)).find((r) => r.record_id === record_id)
    assert.deepEqual([own?.quarantined, own?.current.lesson], [true, canary], 'the author still reads her own text')

    await op(t, 'release', { reason_code: 'other', target_type: 'lesson', target_id: lesson_id, reason: 'fine' })
    const released = (await publicLessons(t)).find((l) => l.id === lesson_id)
    assert.deepEqual([released?.lesson, released?.quarantined], [canary, false])
    assert.ok((await exportAll(t)).ids.includes(record_id))
    const unknown = await op<ErrorBody>(t, 'quarantine', {
      reason_code: 'other',
      target_type: 'lesson',
      target_id: 999_999,
      reason: 'x',
    })
    assert.deepEqual([unknown.status, unknown.body.error.code], [400, 'not_found'])
  })

  test('export_research: JSON Lines of the current versions without identity, a manifest that counts them', async () => {
    const fresh = await startServer()
    try {
      const carl = await fresh.join('Carl', 'model-c')
      const sources: number[] = []
      for (let i = 0; i < 3; i++) sources.push((await post(fresh, carl.key)).body.id)
      await learn(fresh, 'learning_consent', {
        key: carl.key,
        contribution_id: sources[0],
        purpose: 'research_training',
        granted: true,
        terms_version: 'consent-1',
      })
      await consent(fresh, carl.key, sources[1] as number, 'research_training', true)
      const a = await saved(fresh, record(carl.key, [sources[0] as number], { terms_version: 't1' }))
      await saved(
        fresh,
        record(carl.key, [sources[0] as number], { record_id: a.record_id, expected_version: 1, lesson: 'v2' }),
      )
      const b = await saved(
        fresh,
        record(carl.key, [sources[0] as number, sources[1] as number], { terms_version: 't1' }),
      )
      await saved(fresh, record(carl.key, [sources[2] as number])) // no consent: not exported

      const reply = await op<Export>(fresh, 'export_research', {})
      assert.equal(reply.status, 200)
      const { manifest, jsonl, record_ids } = reply.body
      assert.deepEqual(record_ids, [a.record_id, b.record_id])
      const lines = jsonl
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line) as Record<string, unknown>)
      assert.deepEqual(
        lines.map((l) => [l.record_id, l.version, l.terms_version, l.lesson]),
        [
          [a.record_id, 2, '2026-11-22', 'v2'],
          [b.record_id, 1, 't1', 'Short replies invite answers.'],
        ],
      )
      assert.ok(jsonl.endsWith('\n'))
      for (const line of lines) {
        assert.deepEqual(Object.keys(line).sort(), [
          'created_at',
          'feedback',
          'lesson',
          'outcome',
          'record_id',
          'revised_at',
          'revision',
          'source_ids',
          'terms_version',
          'version',
        ])
      }
      assert.ok(!jsonl.includes(carl.id) && !jsonl.includes('Carl'), 'no author identity')
      assert.deepEqual(manifest.counts, { records: 2, source_contributions: 2 })
      assert.deepEqual(manifest.terms_versions, [
        { terms_version: '2026-11-22', count: 1 },
        { terms_version: 't1', count: 1 },
      ])
      assert.deepEqual(manifest.consent_terms_versions, [
        { terms_version: null, count: 1 },
        { terms_version: 'consent-1', count: 1 },
      ])
      assert.match(manifest.policy_version, /^\d{4}-\d{2}-\d{2}$/)

      const paged = await exportAll(fresh, 1)
      assert.deepEqual(paged.ids, [a.record_id, b.record_id])
      assert.deepEqual(
        paged.pages.map((p) => p.manifest.counts.records),
        [1, 1, 0].slice(0, paged.pages.length),
      )
    } finally {
      await fresh.close()
    }
  })

  test('view=policy: date-stamped terms, both purposes, and what withdrawal cannot recall', async () => {
    const policy = await t.get<{
      version: string
      purposes: Array<{ purpose: string; meaning: string }>
      withdrawal: string
      limits: Record<string, number>
    }>('/api/learning?view=policy')
    assert.equal(policy.status, 200)
    assert.match(policy.body.version, /^\d{4}-\d{2}-\d{2}$/)
    assert.deepEqual(
      policy.body.purposes.map((p) => p.purpose),
      ['memory', 'research_training'],
    )
    assert.match(policy.body.withdrawal, /cannot recall copies\s+already exported/)
    assert.match(policy.body.withdrawal, /cannot undo training already completed/)
    assert.equal(policy.body.limits.source_ids_max, 12)
  })

  test('every learning action is in /openapi.json and the descriptor', async () => {
    const names = registry.all.map((e) => e.def.name).filter((n) => /learning|lessons|export_research/.test(n))
    const descriptor = await t.view<{ protocol: { actions: Array<{ name: string }> } }>(undefined)
    const listed = new Set(descriptor.body.protocol.actions.map((a) => a.name))
    for (const name of names) assert.ok(listed.has(name), `${name} in the descriptor`)
    const openapi = await t.get<{ paths: Record<string, unknown> }>('/openapi.json')
    assert.ok(openapi.body.paths['/api/learning'])
  })

  test('npm run operator reaches the learning operator actions', async () => {
    const { record_id, version } = await saved(t, record(ann.key, [source]))
    const env = { ...process.env, PUBLIC_BASE_URL: t.url, OPERATOR_KEY }
    const cli = ['src/main.ts', 'operator']
    const approved = await run(
      process.execPath,
      [...cli, 'approve_learning', '--json', JSON.stringify({ record_id, version })],
      { env },
    )
    assert.equal((JSON.parse(approved.stdout) as { review: string }).review, 'approved')
    const exported = await run(process.execPath, [...cli, 'export_research', '--json', '{"limit":200}'], { env })
    assert.ok((JSON.parse(exported.stdout) as Export).record_ids.includes(record_id))
  })
})

describe('the learning examples succeed for a participant in good standing', () => {
  test('each example of test/support/examples.ts answers 200', async () => {
    const t = await startServer()
    try {
      const f = await makeFixture(t)
      const names = ['save_learning', 'learning_consent', 'my_learning', 'read_learning', 'read_learning_policy']
      const operator = ['list_learning', 'approve_learning', 'reject_learning', 'export_research']
      for (const name of [...names, ...operator, 'withdraw_learning']) {
        const entry = registry.get(name)
        assert.ok(entry, name)
        const reply = await call(t, entry, example(name, f))
        assert.equal(reply.status, 200, `${name}: ${JSON.stringify(reply.body)}`)
      }
    } finally {
      await t.close()
    }
  })
})
