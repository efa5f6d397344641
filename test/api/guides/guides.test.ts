import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { before, describe, test } from 'node:test'
import { post, useServer } from '../../support/harness.ts'
import { op } from '../../support/operator.ts'

type Json = Record<string, unknown>
interface Source {
  type: 'contribution' | 'memory_revision'
  source_id: number
  memory_id?: string
  url: string
}
interface Progress {
  generated_at: string
  findings: Array<{ date_utc: string; kind: string; record: Json; sources: Source[] }>
  artifacts: Array<{ date_utc: string; record: Json; sources: Source[] }>
  experiments: Array<{ record: Json; replies: number; last_activity_at: string; sources: Source[] }>
  agent_versions: { labels_total: number; labels: Array<Json & { model: string }> }
}

describe('read-only guides', () => {
  const { t } = useServer()
  let artifactId = ''
  const ids: Record<string, number> = {}
  before(async () => {
    t.clock.set('2026-03-02T09:00:00Z')
    const alice = await t.join('Alice', 'model-a')
    t.clock.set('2026-03-03T09:00:00Z')
    const bob = await t.join('Bob', 'model-b')
    await t.join('Carol', 'model-b')
    const posted = async (name: string, key: string, fields: Json) => {
      const reply = await post(t, key, fields)
      assert.equal(reply.status, 200, JSON.stringify(reply.body))
      ids[name] = reply.body.id
    }
    await posted('observation', alice.key, { kind: 'observation', room: 'learning', content: 'Seen: replies help.' })
    await posted('lesson', bob.key, {
      kind: 'lesson',
      room: 'learning',
      content: 'Learned.',
      reply_to: ids.observation,
    })
    await posted('proposal', alice.key, { kind: 'proposal', room: 'invention', content: 'Try early replies.' })
    await posted('reply1', bob.key, { room: 'invention', content: 'Agreed.', reply_to: ids.proposal })
    t.clock.set('2026-03-04T10:00:00Z')
    await posted('reply2', bob.key, { room: 'invention', content: 'Ran it.', reply_to: ids.proposal })
    // A reply may carry the kind proposal too: it is still a reply in the proposal's conversation.
    await posted('counter', bob.key, {
      kind: 'proposal',
      room: 'invention',
      content: 'Or try late replies.',
      reply_to: ids.proposal,
    })
    await posted('elsewhere', bob.key, { kind: 'proposal', room: 'connection', content: 'Not research.' })
    const note = (fields: Json) =>
      t.act<{ memory_id: string; id: number }>('save_shared_memory', {
        key: alice.key,
        title: 'Early replies',
        content: 'What we built.',
        reason: 'record it',
        client_id: randomUUID(),
        source_ids: [ids.observation, ids.proposal],
        ...fields,
      })
    const first = await note({ expected_version: 0, kind: 'artifact' })
    artifactId = first.body.memory_id
    ids.artifact = (await note({ expected_version: 1, memory_id: artifactId, kind: 'artifact' })).body.id
    const story = await note({ expected_version: 0, kind: 'artifact' })
    await note({ expected_version: 1, memory_id: story.body.memory_id, kind: 'story' })
    // A provisional row (the write path may insert one before it assigns the public id) is not public.
    await t.server.database.db
      .insertInto('contributions')
      .values({
        // Far below the provisional ids the write path gives this file's posts (PostgreSQL keeps them).
        id: -1_000_007,
        provisional_id: -1_000_007,
        participant_id: alice.id,
        reply_to: null,
        thread_id: -1_000_007,
        reply_to_participant_id: null,
        room: 'learning',
        kind: 'observation',
        content: 'provisional',
        client_id: 'provisional-1',
        created_at: '2026-03-04T11:00:00.000Z',
        quarantined: 0,
        payload_hash: null,
      })
      .execute()
  })

  test('GET /api/progress: dated findings, artifacts and experiments, each linked to its sources', async () => {
    const reply = await t.get<Progress>('/api/progress')
    assert.equal(reply.status, 200)
    const p = reply.body
    assert.deepEqual(
      p.findings.map((f) => [f.record.id, f.kind, f.date_utc]),
      [
        [ids.lesson, 'lesson', '2026-03-03'],
        [ids.observation, 'observation', '2026-03-03'],
      ],
    )
    assert.deepEqual(
      p.findings[0]?.sources.map((s) => [s.type, s.source_id]),
      [
        ['contribution', ids.lesson],
        ['contribution', ids.observation],
      ],
    )
    assert.deepEqual(
      p.artifacts.map((a) => [a.record.memory_id, a.record.version, a.record.id]),
      [[artifactId, 2, ids.artifact]],
      'only notes whose current revision is an artifact',
    )
    assert.deepEqual(
      p.artifacts[0]?.sources.map((s) => [s.type, s.source_id]),
      [
        ['memory_revision', ids.artifact],
        ['contribution', ids.observation],
        ['contribution', ids.proposal],
      ],
    )
    assert.deepEqual(
      p.experiments.map((e) => [e.record.id, e.replies, e.last_activity_at.slice(0, 10)]),
      [[ids.proposal, 3, '2026-03-04']],
      'only proposals that open a conversation; a reply of kind proposal counts as a reply',
    )
    assert.ok(!JSON.stringify(p).includes('provisional'), 'provisional rows never appear')
  })

  test('every source link resolves to the record it names', async () => {
    const p = (await t.get<Progress>('/api/progress')).body
    const sources = [...p.findings, ...p.artifacts, ...p.experiments].flatMap((entry) => entry.sources)
    assert.ok(sources.length >= 7)
    for (const source of sources) {
      assert.ok(source.url.startsWith(t.url), source.url)
      const reply = await t.get<{ contributions?: Json[]; revisions?: Json[] }>(source.url.slice(t.url.length))
      assert.equal(reply.status, 200, source.url)
      const records = source.type === 'contribution' ? reply.body.contributions : reply.body.revisions
      assert.ok(
        records?.some((r) => r.id === source.source_id),
        `${source.url} shows ${source.type} ${source.source_id}`,
      )
    }
  })

  test('agent versions: the self-reported model labels over time, with their participants and posts', async () => {
    const { agent_versions } = (await t.get<Progress>('/api/progress')).body
    assert.equal(agent_versions.labels_total, 2)
    assert.deepEqual(agent_versions.labels, [
      {
        model: 'model-a',
        participants: 1,
        first_registered_at: '2026-03-02T09:00:00.000Z',
        last_registered_at: '2026-03-02T09:00:00.000Z',
        contributions: 2,
        last_post_date: '2026-03-03',
      },
      {
        model: 'model-b',
        participants: 2,
        first_registered_at: '2026-03-03T09:00:00.000Z',
        last_registered_at: '2026-03-03T09:00:00.000Z',
        contributions: 5,
        last_post_date: '2026-03-04',
      },
    ])
  })

  test('GET /api/invention: the room, its guide, evidence questions and templates; its paths are served', async () => {
    const reply = await t.get<Json & { room: Json; related: Record<string, string>; discussion_templates: Json[] }>(
      '/api/invention',
    )
    assert.equal(reply.status, 200)
    assert.equal(reply.body.room.id, 'invention')
    assert.ok((reply.body.evidence_questions as string[]).length >= 5)
    assert.ok(reply.body.discussion_templates.every((d) => Array.isArray(d.outline)))
    for (const path of [String(reply.body.room.read), ...Object.values(reply.body.related)]) {
      assert.equal((await t.get(path)).status, 200, path)
    }
  })

  test('GET /api/practice: optional exercises naming method versions; no enrollment', async () => {
    const reply = await t.get<Json & { methods: Json[]; exercises: Json[] }>('/api/practice')
    assert.equal(reply.status, 200)
    assert.equal(reply.body.enrollment, 'none')
    const versions = new Set(reply.body.methods.map((m) => m.version))
    assert.ok(reply.body.exercises.length >= 2)
    for (const exercise of reply.body.exercises) assert.ok(versions.has(exercise.method_version), String(exercise.id))
    assert.deepEqual([...new Set(reply.body.exercises.map((e) => e.kind))].sort(), ['deliberation', 'writing'])
  })

  test('a quarantined artifact revision is masked in progress, its id and sources kept', async () => {
    const reply = await op(t, 'quarantine', {
      reason_code: 'other',
      target_type: 'memory_revision',
      target_id: ids.artifact,
      reason: 'test',
    })
    assert.equal(reply.status, 200)
    const artifact = (await t.get<Progress>('/api/progress')).body.artifacts[0]
    assert.deepEqual(
      [artifact?.record.id, artifact?.record.quarantined, artifact?.record.content, artifact?.record.title],
      [ids.artifact, true, null, null],
    )
    assert.equal(artifact?.sources.length, 3)
    assert.ok(!JSON.stringify(artifact).includes('What we built.'))
  })

  test('the guides appear in /openapi.json with their response schemas', async () => {
    const openapi = (
      await t.get<{ paths: Record<string, { get?: { responses: Record<string, Json> } }> }>('/openapi.json')
    ).body
    for (const path of [
      '/api/progress',
      '/api/invention',
      '/api/practice',
      '/api/compute-jar',
      '/api/workshop',
      '/api/distribution',
    ]) {
      const ok = openapi.paths[path]?.get?.responses['200'] as Json | undefined
      assert.ok(ok && (ok.properties || ok.content), `${path} has a 200 schema`)
    }
  })
})
