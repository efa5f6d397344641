import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { Ajv2020 } from 'ajv/dist/2020.js'
import { startServer, type TestServer } from '../../support/harness.ts'
import { storedState } from '../../support/snapshot.ts'
import { type ErrorReply } from '../../support/errors.ts'

type Json = Record<string, unknown>

const LEDGER = {
  version: 1,
  title: 'replies by participant, one week',
  unit: 'replies',
  source: { kind: 'public_records', description: 'view=history, one week', locator: '/api/clearing?view=history' },
  entries: [
    { holder: 'p1', amount: 1, category: 'invention' },
    { holder: 'p2', amount: 2, category: 'invention' },
    { holder: 'p3', amount: 3, category: 'humor' },
    { holder: 'p4', amount: 4, category: 'humor' },
  ],
}

describe('distribution analysis', () => {
  let t: TestServer
  let stored: string
  before(async () => {
    t = await startServer()
    stored = await storedState(t.server.database.db)
  })
  after(async () => {
    assert.equal(await storedState(t.server.database.db), stored, 'the analysis stores nothing')
    await t.close()
  })

  test('GET /distribution-ledger.schema.json: JSON Schema 2020-12, $id under the base URL, accepts the blank ledger', async () => {
    const reply = await t.get<Json>('/distribution-ledger.schema.json')
    assert.equal(reply.status, 200)
    assert.match(reply.headers.get('content-type') ?? '', /^application\/schema\+json/)
    assert.equal(reply.body.$schema, 'https://json-schema.org/draft/2020-12/schema')
    assert.equal(reply.body.$id, `${t.url}/distribution-ledger.schema.json`)
    const validate = new Ajv2020({ allErrors: true, strict: true }).compile(reply.body)
    const doc = (await t.get<{ blank_ledger: Json; evidence_schema: Json }>('/api/distribution')).body
    assert.equal(validate(doc.blank_ledger), true, JSON.stringify(validate.errors))
    assert.equal(validate(LEDGER), true)
    assert.deepEqual(doc.evidence_schema.document, reply.body, 'the guide embeds the same document')
    assert.equal(doc.evidence_schema.url, reply.body.$id)
    for (const extra of [
      { ...LEDGER, extra: 1 },
      { ...LEDGER, source: { ...LEDGER.source, extra: 1 } },
      { ...LEDGER, entries: [{ holder: 'a', amount: 1, extra: 1 }] },
    ]) {
      assert.equal(validate(extra), false)
    }
  })

  test('GET /api/distribution: protocol, evidence schema, blank ledger and the measures defined', async () => {
    const reply = await t.get<Json & { protocol: string[]; measures: Json }>('/api/distribution')
    assert.equal(reply.status, 200)
    assert.equal(reply.body.schema, 'clearing.distribution.v1')
    assert.ok(reply.body.protocol.length >= 5)
    assert.deepEqual(Object.keys(reply.body.measures).sort(), [
      'categories',
      'gini',
      'lorenz',
      'shares',
      'theil',
      'top_k_share',
      'totals',
    ])
  })

  test('analyze: the hand-computed case (amounts 1, 2, 3, 4)', async () => {
    const reply = await t.post<Json & Record<string, Json>>('/api/distribution', { action: 'analyze', ledger: LEDGER })
    assert.equal(reply.status, 200, JSON.stringify(reply.body))
    assert.equal(reply.body.totals?.amount, 10)
    assert.equal(reply.body.gini?.value, 0.25)
    assert.equal(reply.body.theil?.value, 0.106440135)
    assert.deepEqual([reply.body.top_k_share?.k, reply.body.top_k_share?.value], [1, 0.4])
    assert.deepEqual(
      (reply.body.lorenz?.points as Json[]).map((p) => p.amount_share),
      [0, 0.1, 0.3, 0.6, 1],
    )
    assert.deepEqual(
      (reply.body.categories?.breakdown as Json[]).map((c) => [c.category, c.amount, c.share]),
      [
        ['humor', 7, 0.7],
        ['invention', 3, 0.3],
      ],
    )
  })

  test('analyze refuses a ledger outside the schema with 400 and the pointer of each problem', async () => {
    const cases: Array<[unknown, string]> = [
      [{ ...LEDGER, extra: 1 }, '/ledger/extra'],
      [{ ...LEDGER, source: { ...LEDGER.source, extra: 1 } }, '/ledger/source/extra'],
      [{ ...LEDGER, entries: [{ holder: 'a', amount: 1, extra: 1 }] }, '/ledger/entries/0/extra'],
      [{ ...LEDGER, entries: [{ holder: 'a', amount: -5 }] }, '/ledger/entries/0/amount'],
      [{ ...LEDGER, version: 2 }, '/ledger/version'],
    ]
    for (const [ledger, path] of cases) {
      const reply = await t.post<ErrorReply>('/api/distribution', { action: 'analyze', ledger })
      assert.equal(reply.status, 400, path)
      assert.equal(reply.body.error.code, 'invalid_request')
      assert.deepEqual(
        reply.body.error.details?.map((d) => d.path),
        [path],
      )
    }
    const many = { ...LEDGER, entries: Array.from({ length: 300 }, () => ({ holder: 'x', amount: 1, bad: 1 })) }
    const capped = await t.post<ErrorReply>('/api/distribution', { action: 'analyze', ledger: many })
    assert.equal(capped.status, 400)
    assert.equal(capped.body.error.details?.length, 50)
  })

  test('the body itself is strict: missing ledger, extra properties and unknown actions answer 400', async () => {
    for (const body of [
      { action: 'analyze' },
      { action: 'analyze', ledger: LEDGER, share: true },
      { action: 'analyze', ledger: [] },
    ]) {
      const reply = await t.post<ErrorReply>('/api/distribution', body)
      assert.equal(reply.status, 400)
      assert.equal(reply.body.error.code, 'invalid_request')
    }
    const unknown = await t.post<ErrorReply>('/api/distribution', { action: 'publish', ledger: LEDGER })
    assert.equal(unknown.status, 400)
    assert.equal(unknown.body.error.code, 'unknown_action')
  })
})
