import assert from 'node:assert/strict'
import { performance } from 'node:perf_hooks'
import { after, before, describe, test } from 'node:test'
import { startServer, type Reply, type TestServer } from '../../support/harness.ts'
import { storedState } from '../../support/snapshot.ts'
import { type ErrorReply } from '../../support/errors.ts'

type Json = Record<string, unknown>

const SPEC_KEYS = [
  'schema',
  'version',
  'human',
  'api',
  'guide',
  'title',
  'activities',
  'invitation',
  'steps',
  'endpoints',
  'templates',
  'local_tools',
  'limits',
  'continuity',
  'evidence_ladder',
  'governance',
]

describe('the workshop', () => {
  let t: TestServer
  let before_: string
  const workshop = <T = Json>(body: unknown) => t.post<T>('/api/workshop', body)
  before(async () => {
    t = await startServer()
    await t.join('Someone', 'm')
    before_ = await storedState(t.server.database.db)
  })
  after(async () => {
    // Every call in this file is a stateless read: nothing stored changed, refusals included.
    assert.equal(await storedState(t.server.database.db), before_)
    await t.close()
  })

  test('GET /api/workshop: exactly the spec keys and template values', async () => {
    const reply = await t.get('/api/workshop')
    assert.equal(reply.status, 200)
    const doc = reply.body as unknown as Record<string, unknown> & {
      endpoints: Record<string, Json & { equations?: string[]; parameters?: Json }>
      templates: {
        belief: Json & { prior_art: Json; provenance: Json }
        audit: Json & { evidence: Json[]; commitments: Json[] }
      }
      governance: { layers: string[]; principle: string }
    }
    assert.deepEqual(Object.keys(doc).sort(), [...SPEC_KEYS].sort())
    assert.equal(doc.schema, 'clearing.workshop.v1')
    assert.equal(doc.version, 1)
    assert.deepEqual([doc.human, doc.api, doc.guide], ['/docs', '/api/workshop', '/api/invention'])
    assert.deepEqual(doc.activities, ['riff', 'critique', 'revise', 'investigate', 'listen', 'open'])
    assert.equal((doc.steps as string[]).length, 7)
    assert.deepEqual(Object.keys(doc.endpoints), ['read', 'audit', 'simulation', 'governance'])
    const { belief, audit } = doc.templates
    assert.deepEqual(Object.keys(belief), [
      'version',
      'activity',
      'claim',
      'scope',
      'observations',
      'assumptions',
      'translation',
      'connection_type',
      'translation_losses',
      'alternative',
      'discriminating_test',
      'prediction',
      'counterexample',
      'revision',
      'prior_art',
      'provenance',
      'status',
    ])
    assert.equal(belief.connection_type, 'structural_analogy')
    assert.deepEqual(belief.prior_art, { status: 'not_checked', search_scope: '', sources: [] })
    assert.equal(belief.provenance.rules_version, 'belief-v1')
    assert.equal(belief.status, 'draft')
    assert.deepEqual(Object.keys(audit), [
      'version',
      'requested_activity',
      'observed_activity',
      'evidence',
      'claims',
      'commitments',
      'note',
    ])
    assert.equal(audit.evidence[0]?.status, 'inspected')
    assert.deepEqual(audit.evidence[0]?.qualifiers, ['partial_check', 'limited_search'])
    assert.equal(audit.commitments[0]?.status, 'done')
    assert.deepEqual(doc.evidence_ladder, [
      'observation',
      'candidate_lesson',
      'change_proposed',
      'comparison_run',
      'transfer_demonstrated_with_limits',
    ])
    assert.deepEqual(doc.governance.layers, [
      'record',
      'identity',
      'standards',
      'sanction',
      'appeal',
      'limits on authority',
    ])
    assert.ok(doc.governance.principle.length > 40)
    for (const name of ['simulation', 'governance']) {
      const model = doc.endpoints[name]
      assert.ok((model?.equations ?? []).length >= 5, `${name} states its equations`)
      assert.deepEqual(Object.keys(model?.parameters ?? {}), ['power', 'hours', 'resolution'])
    }
  })

  test('the paths the document names are served', async () => {
    const doc = (await t.get<{ api: string; guide: string; local_tools: string[] }>('/api/workshop')).body
    for (const path of [doc.api, doc.guide, ...doc.local_tools]) {
      assert.equal((await t.get(path)).status, 200, path)
    }
  })

  test('audit: the templates pass; a broken record gets findings with JSON Pointers', async () => {
    const doc = (await t.get<{ templates: { belief: Json; audit: Json } }>('/api/workshop')).body
    for (const record of [doc.templates.belief, doc.templates.audit]) {
      const reply = await workshop<{ valid: boolean; findings: Json[]; note: string }>({ action: 'audit', record })
      assert.equal(reply.status, 200)
      assert.equal(reply.body.valid, true)
      assert.match(reply.body.note, /not factual truth/)
    }
    const broken = {
      ...doc.templates.audit,
      claims: [{ id: 'c1', text: 'x', evidence_ids: ['nope'], qualifiers: ['hunch'], contradiction_ids: [] }],
    }
    const reply = await workshop<{ valid: boolean; record_type: string; findings: Json[] }>({
      action: 'audit',
      record: broken,
    })
    assert.equal(reply.status, 200)
    assert.equal(reply.body.valid, false)
    assert.equal(reply.body.record_type, 'audit')
    const errors = reply.body.findings.filter((f) => f.severity === 'error').map((f) => f.path)
    assert.deepEqual(errors.sort(), ['/claims/0/evidence_ids/0', '/claims/0/qualifiers/0'])
  })

  test('audit needs a record object: missing, array, string or nested too deep answers 400', async () => {
    const cases: Array<[unknown, string]> = [
      [{ action: 'audit' }, '/record'],
      [{ action: 'audit', record: [] }, '/record'],
      [{ action: 'audit', record: 'claim' }, '/record'],
      [{ action: 'audit', record: JSON.parse('{"a":'.repeat(200) + '1' + '}'.repeat(200)) }, '/record'],
    ]
    for (const [body, path] of cases) {
      const reply = await workshop<ErrorReply>(body)
      assert.equal(reply.status, 400, JSON.stringify(body).slice(0, 60))
      assert.equal(reply.body.error.code, 'invalid_request')
      assert.ok(reply.body.error.details?.[0]?.path.startsWith(path), JSON.stringify(reply.body))
    }
    // Nearly 64 KiB of nesting inside the record: refused as too deep, never a stack overflow.
    const deep = `{"action":"audit","record":${'{"a":'.repeat(10000)}1${'}'.repeat(10000)}}`
    const reply = await workshop<ErrorReply>(deep)
    assert.equal(reply.status, 400)
    assert.match(reply.body.error.details?.[0]?.message ?? '', /nested more than 64 levels/)
  })

  test('extra properties and unknown actions are refused with 400', async () => {
    for (const body of [
      { action: 'audit', record: {}, power: 1 },
      { action: 'hidden_world', record: {} },
      { action: 'governance_trial', hours: 1, verbose: true },
    ]) {
      const reply = await workshop<ErrorReply>(body)
      assert.equal(reply.status, 400, JSON.stringify(body))
      assert.equal(reply.body.error.code, 'invalid_request')
      assert.match(JSON.stringify(reply.body.error.details), /unknown field/)
    }
    const unknown = await workshop<ErrorReply>({ action: 'run_code', code: 'process.exit()' })
    assert.equal(unknown.status, 400)
    assert.equal(unknown.body.error.code, 'unknown_action')
  })

  test('every bound of power, hours and resolution, at and past each edge', async () => {
    const edges: Array<[string, unknown, number]> = [
      ['power', 0, 200],
      ['power', 5, 200],
      ['power', -0.0001, 400],
      ['power', 5.0001, 400],
      ['power', '3', 400],
      ['hours', 0, 200],
      ['hours', 24, 200],
      ['hours', -1, 400],
      ['hours', 24.001, 400],
      ['hours', null, 400],
      ['resolution', 0.000001, 200],
      ['resolution', 1, 200],
      ['resolution', 0, 400],
      ['resolution', 0.0000009, 400],
      ['resolution', 1.5, 400],
    ]
    for (const action of ['hidden_world', 'governance_trial']) {
      for (const [field, value, status] of edges) {
        const reply = await workshop<ErrorReply>({ action, [field]: value })
        assert.equal(reply.status, status, `${action} ${field}=${String(value)}`)
        if (status === 400) assert.equal(reply.body.error.details?.[0]?.path, `/${field}`)
      }
    }
  })

  test('simulations: equal inputs give equal outputs; defaults fill what is omitted', async () => {
    for (const action of ['hidden_world', 'governance_trial']) {
      const body = { action, power: 2.5, hours: 13.5, resolution: 0.25 }
      const [a, b] = await Promise.all([workshop(body), workshop(body)])
      assert.equal(a.status, 200)
      assert.deepEqual(a.body, b.body)
      const defaults = await workshop<{ parameters: Json }>({ action })
      assert.deepEqual(defaults.body.parameters, { power: 1, hours: 8, resolution: 0.01 })
    }
  })

  test('simulations answer at the extremes of every parameter (measured)', async () => {
    const extremes = [
      { power: 0, hours: 0, resolution: 0.000001 },
      { power: 5, hours: 24, resolution: 0.000001 },
      { power: 5, hours: 24, resolution: 1 },
    ]
    let slowest = 0
    for (const action of ['hidden_world', 'governance_trial']) {
      for (const p of extremes) {
        const started = performance.now()
        const reply: Reply = await workshop({ action, ...p })
        slowest = Math.max(slowest, performance.now() - started)
        assert.equal(reply.status, 200)
      }
    }
    console.log(`slowest simulation request at the extremes: ${slowest.toFixed(1)} ms (HTTP round trip)`)
    assert.ok(slowest < 1000, `${slowest} ms`)
  })
})
