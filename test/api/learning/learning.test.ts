import assert from 'node:assert/strict'
import { before, describe, test } from 'node:test'
import { post, twoInstances, useServer } from '../../support/harness.ts'
import {
  approve,
  consent,
  exportAll,
  learn,
  mine,
  publicLessons,
  record,
  save,
  saved,
  type ErrorBody,
} from '../../support/learning.ts'
import { storedState } from '../../support/snapshot.ts'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

describe('learning records: versions, conflicts, idempotency, privacy, withdrawal', () => {
  const { t, ann, bob } = useServer({ participants: { ann: ['Ann', 'model-a'], bob: ['Bob', 'model-b'] } })
  let source: number
  before(async () => {
    source = (await post(t, ann.key, { content: 'what Ann tried' })).body.id
    for (const purpose of ['memory', 'research_training'] as const) await consent(t, ann.key, source, purpose, true)
  })

  const stored = () => storedState(t.server.database.db)

  test('creates at version 1 with a server UUID, or with a chosen one; revises; keeps every version and its terms', async () => {
    const created = await saved(t, record(ann.key, [source], { terms_version: 'v1' }))
    assert.match(created.record_id, UUID)
    assert.deepEqual([created.version, created.duplicate], [1, false])
    const revised = await saved(
      t,
      record(ann.key, [source], {
        record_id: created.record_id,
        expected_version: 1,
        lesson: '  Second thoughts.  ',
        terms_version: 'v2',
      }),
    )
    assert.deepEqual(revised, { record_id: created.record_id, version: 2, duplicate: false })
    const chosen = '5b0c9a1e-2f3d-4c5b-8a6e-7f8091a2b3c4'
    assert.equal((await saved(t, record(ann.key, [source], { record_id: chosen }))).record_id, chosen)

    const own = (await mine(t, ann.key)).find((r) => r.record_id === created.record_id)
    assert.equal(own?.version, 2)
    assert.equal(own?.review, 'pending')
    assert.equal(own?.current.lesson, 'Second thoughts.', 'text fields are trimmed')
    assert.deepEqual(
      own?.revisions.map((r) => [r.version, r.terms_version, r.lesson]),
      [
        [1, 'v1', 'Short replies invite answers.'],
        [2, 'v2', 'Second thoughts.'],
      ],
    )
  })

  test('a stale or impossible version answers 409 version_conflict or 400 and changes nothing', async () => {
    const { record_id } = await saved(t, record(ann.key, [source]))
    await saved(t, record(ann.key, [source], { record_id, expected_version: 1 }))
    const before = await stored()
    const cases: Array<[Record<string, unknown>, number, string]> = [
      [{ record_id, expected_version: 1 }, 409, 'version_conflict'],
      [{ record_id, expected_version: 7 }, 409, 'version_conflict'],
      [{ record_id, expected_version: 0 }, 409, 'version_conflict'],
      [{ expected_version: 1 }, 400, 'invalid_request'],
      [{ record_id: '00000000-0000-4000-8000-000000000000', expected_version: 1 }, 400, 'not_found'],
    ]
    for (const [fields, status, code] of cases) {
      const reply = await save(t, record(ann.key, [source], { lesson: 'overwrite?', ...fields }))
      assert.equal(reply.status, status, JSON.stringify(fields))
      assert.equal(reply.body.error.code, code)
    }
    assert.equal(await stored(), before)
  })

  test('20 concurrent saves at one expected_version: exactly one new version and 19 x 409', async () => {
    const { record_id } = await saved(t, record(ann.key, [source]))
    const replies = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        save(t, record(ann.key, [source], { record_id, expected_version: 1, lesson: `edit ${i}` })),
      ),
    )
    assert.equal(replies.filter((r) => r.status === 200).length, 1)
    const conflicts = replies.filter((r) => r.status === 409)
    assert.equal(conflicts.length, 19)
    assert.ok(conflicts.every((r) => r.body.error.code === 'version_conflict'))
    const own = (await mine(t, ann.key)).find((r) => r.record_id === record_id)
    assert.deepEqual(
      own?.revisions.map((r) => r.version),
      [1, 2],
    )
  })

  test('20 concurrent creates of one chosen record_id: one record and 19 x 409', async () => {
    const record_id = 'a0b1c2d3-e4f5-4a6b-8c7d-9e0f1a2b3c4d'
    const replies = await Promise.all(
      Array.from({ length: 20 }, (_, i) => save(t, record(ann.key, [source], { record_id, lesson: `first ${i}` }))),
    )
    assert.equal(replies.filter((r) => r.status === 200).length, 1)
    assert.equal(replies.filter((r) => r.status === 409 && r.body.error.code === 'version_conflict').length, 19)
  })

  test('idempotent on client_id: same payload -> duplicate true; each changed field -> 409, nothing stored', async () => {
    const body = record(ann.key, [source], { client_id: 'learn-retry' })
    const first = await saved(t, body)
    const again = await save(t, body)
    assert.equal(again.status, 200)
    assert.deepEqual(again.body, { ...first, duplicate: true })
    const other = (await post(t, ann.key)).body.id
    const changes: Record<string, unknown> = {
      lesson: 'another lesson',
      feedback: 'other feedback',
      revision: 'other revision',
      outcome: 'other outcome',
      source_ids: [source, other],
      memory_allowed: false,
      training_allowed: false,
      terms_version: 'v9',
      record_id: '11111111-2222-4333-8444-555555555555',
    }
    const before = await stored()
    for (const [field, value] of Object.entries(changes)) {
      const reply = await save(t, { ...body, [field]: value })
      assert.equal(reply.status, 409, field)
      assert.equal(reply.body.error.code, 'idempotency_conflict', field)
    }
    const revision = await save(t, { ...body, record_id: first.record_id, expected_version: 1 })
    assert.equal(revision.body.error.code, 'idempotency_conflict', 'a revision under a used client_id')
    assert.equal(await stored(), before)
    // The namespace is per participant: Bob may use the same client_id.
    assert.equal((await save(t, { ...body, key: bob.key })).status, 200)
  })

  test('records are private: another key cannot read, revise, withdraw or decide consent, and learns no text', async () => {
    const secret = 'ann-private-lesson-canary'
    const { record_id } = await saved(t, record(ann.key, [source], { lesson: secret }))
    const before = await stored()
    const attempts = [
      await save(t, record(bob.key, [source], { record_id, expected_version: 1 })),
      await save(t, record(bob.key, [source], { record_id, expected_version: 0 })),
      await learn<ErrorBody>(t, 'withdraw_learning', { key: bob.key, record_id }),
    ]
    for (const reply of attempts) {
      assert.equal(reply.status, 403)
      assert.equal((reply.body as ErrorBody).error.code, 'not_owner')
      assert.ok(!JSON.stringify(reply.body).includes(secret))
    }
    const consentAttempt = await consent(t, bob.key, source, 'memory', false)
    assert.equal(consentAttempt.status, 403)
    assert.equal(consentAttempt.body.error.code, 'not_rightsholder')
    assert.equal(await stored(), before, 'refusals changed nothing')
    const bobs = await learn(t, 'my_learning', { key: bob.key })
    assert.ok(!JSON.stringify(bobs.body).includes(secret), "Bob's my_learning holds none of Ann's text")
    assert.ok(!JSON.stringify(bobs.body).includes(record_id))
    assert.ok(!JSON.stringify((await publicLessons(t)).map((l) => l.lesson)).includes(secret), 'not public unapproved')
  })

  test('withdrawal erases the text of every version, leaves every read and export, and is final', async () => {
    const canary = 'withdrawn-canary-text'
    const { record_id } = await saved(t, record(ann.key, [source], { lesson: canary, client_id: 'to-withdraw' }))
    await saved(t, record(ann.key, [source], { record_id, expected_version: 1, feedback: canary }))
    await approve(t, record_id, 2)
    assert.ok((await publicLessons(t)).some((l) => l.record_id === record_id))
    assert.ok((await exportAll(t)).ids.includes(record_id))

    const withdrawn = await learn(t, 'withdraw_learning', { key: ann.key, record_id })
    assert.equal(withdrawn.status, 200)
    assert.deepEqual(withdrawn.body, { record_id, withdrawn: true, erased_revisions: 2 })
    const again = await learn(t, 'withdraw_learning', { key: ann.key, record_id })
    assert.deepEqual(again.body, { record_id, withdrawn: true, erased_revisions: 0 })

    const rows = await t.server.database.db
      .selectFrom('learning_revisions')
      .selectAll()
      .where('record_id', '=', record_id)
      .execute()
    assert.equal(rows.length, 2, 'the version skeletons stay')
    for (const row of rows) {
      assert.deepEqual(
        [row.lesson, row.feedback, row.revision, row.outcome, row.payload_hash],
        [null, null, null, null, null],
      )
    }
    assert.ok(!(await stored()).includes(canary), 'the text is nowhere in the database')
    assert.ok(!(await publicLessons(t)).some((l) => l.record_id === record_id))
    assert.ok(!(await exportAll(t)).ids.includes(record_id))
    assert.ok(!(await mine(t, ann.key)).some((r) => r.record_id === record_id))

    const revise = await save(t, record(ann.key, [source], { record_id, expected_version: 2 }))
    assert.deepEqual([revise.status, revise.body.error.code], [409, 'state_conflict'])
    const retry = await save(t, record(ann.key, [source], { lesson: canary, client_id: 'to-withdraw' }))
    assert.deepEqual([retry.status, retry.body.error.code], [409, 'idempotency_conflict'])
    const missing = await learn<ErrorBody>(t, 'withdraw_learning', {
      key: ann.key,
      record_id: '00000000-0000-4000-8000-000000000000',
    })
    assert.deepEqual([missing.status, missing.body.error.code], [400, 'not_found'])
  })

  test('a new version leaves the public lessons until approved again, with a new lesson id', async () => {
    const { record_id } = await saved(t, record(ann.key, [source], { lesson: 'first take' }))
    const first = await approve(t, record_id)
    assert.equal(first.public, true)
    await saved(t, record(ann.key, [source], { record_id, expected_version: 1, lesson: 'second take' }))
    assert.ok(!(await publicLessons(t)).some((l) => l.record_id === record_id))
    assert.equal((await mine(t, ann.key)).find((r) => r.record_id === record_id)?.review, 'pending')
    const second = await approve(t, record_id, 2)
    assert.ok(second.lesson_id > first.lesson_id)
    const lesson = (await publicLessons(t)).find((l) => l.record_id === record_id)
    assert.deepEqual([lesson?.id, lesson?.version, lesson?.lesson], [second.lesson_id, 2, 'second take'])
  })
})

describe('learning records across two instances on one database', () => {
  const instances = twoInstances()

  test('concurrent revisions through two servers: one wins, the rest 409', async () => {
    const { a: one, b: two } = instances()
    const ann = await one.join('Ann', 'model-a')
    const source = (await post(one, ann.key)).body.id
    const { record_id } = await saved(one, record(ann.key, [source]))
    const replies = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        save(i % 2 ? one : two, record(ann.key, [source], { record_id, expected_version: 1, lesson: `e${i}` })),
      ),
    )
    assert.equal(replies.filter((r) => r.status === 200).length, 1)
    assert.equal(replies.filter((r) => r.status === 409).length, 9)
  })
})
