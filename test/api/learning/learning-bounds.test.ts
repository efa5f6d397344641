/** Bounds and strictness of every field of the learning actions: 400, and nothing stored. */
import assert from 'node:assert/strict'
import { before, describe, test } from 'node:test'
import { post, useServer } from '../../support/harness.ts'
import { learn, record, saved, type ErrorBody } from '../../support/learning.ts'
import { op } from '../../support/operator.ts'
import { storedState } from '../../support/snapshot.ts'

const long = (n: number) => 'x'.repeat(n)
const without = (body: Record<string, unknown>, field: string) => {
  const copy = { ...body }
  delete copy[field]
  return copy
}

describe('learning inputs are bounded and strict', () => {
  const { t } = useServer()
  let key: string
  let source: number
  let recordId: string
  before(async () => {
    key = (await t.join('Ann', 'model-a')).key
    source = (await post(t, key)).body.id
    recordId = (await saved(t, record(key, [source]))).record_id
  })

  async function refused(action: string, body: Record<string, unknown>, code = 'invalid_request', status = 400) {
    const before = await storedState(t.server.database.db)
    const reply = await learn<ErrorBody>(t, action, body)
    assert.equal(reply.status, status, `${action} ${JSON.stringify(body).slice(0, 200)}: ${JSON.stringify(reply.body)}`)
    assert.equal(reply.body.error.code, code)
    assert.equal(await storedState(t.server.database.db), before, 'nothing stored')
  }

  test('save_learning: every field required, typed, bounded; no extra field', async () => {
    const valid = record(key, [source])
    for (const field of Object.keys(valid)) {
      if (field === 'key') continue
      await refused('save_learning', without(valid, field))
    }
    await refused('save_learning', without(valid, 'key'))
    const bad: Record<string, unknown[]> = {
      record_id: ['not-a-uuid', 7, ''],
      expected_version: [-1, 1.5, '0', Number.MAX_SAFE_INTEGER + 2],
      source_ids: [[], Array.from({ length: 13 }, (_, i) => i + 1), [source, source], [0], [-3], ['1'], source],
      lesson: ['', '   ', long(4001), 5, null],
      feedback: ['', long(4001), false],
      revision: ['', long(4001), []],
      outcome: ['', long(4001), {}],
      memory_allowed: ['true', 1, null],
      training_allowed: ['false', 0],
      authorized_rightsholder: [false, 'true', 1],
      terms_version: ['', long(65), 'has space', '-leading', 'émoji', 3],
      client_id: ['', long(101), 9],
      key: ['', long(201)],
    }
    for (const [field, values] of Object.entries(bad)) {
      for (const value of values) await refused('save_learning', { ...valid, [field]: value })
    }
    await refused('save_learning', { ...valid, extra: 1 })
    await refused('save_learning', { ...valid, lesson: 'nul \u0000 inside' })
    await refused('save_learning', { ...valid, source_ids: [source, 999_999] }, 'not_found')
    await refused('save_learning', { ...valid, key: 'clr_unknown' }, 'invalid_key', 403)
  })

  test('save_learning accepts the limits themselves', async () => {
    const sources = [source]
    for (let i = 0; i < 11; i++) sources.push((await post(t, key)).body.id)
    const edge = record(key, sources, {
      lesson: long(4000),
      feedback: long(4000),
      revision: long(4000),
      outcome: long(4000),
      terms_version: 'A'.repeat(64),
      client_id: 'c'.repeat(100),
    })
    const reply = await learn(t, 'save_learning', edge)
    assert.equal(reply.status, 200, JSON.stringify(reply.body))
  })

  test('learning_consent: bounded and strict; a grant declaring no rights is refused', async () => {
    const valid = { key, contribution_id: source, purpose: 'memory', granted: true }
    for (const field of ['contribution_id', 'purpose', 'granted'])
      await refused('learning_consent', without(valid, field))
    const bad: Record<string, unknown[]> = {
      contribution_id: [0, -1, 1.5, '1', Number.MAX_SAFE_INTEGER + 2],
      purpose: ['training', '', 'MEMORY', 1],
      granted: ['true', 1, null],
      authorized_rightsholder: ['yes', 0],
      terms_version: ['', long(65), 'a b'],
    }
    for (const [field, values] of Object.entries(bad)) {
      for (const value of values) await refused('learning_consent', { ...valid, [field]: value })
    }
    await refused('learning_consent', { ...valid, extra: true })
    await refused('learning_consent', { ...valid, authorized_rightsholder: false })
    // Revoking while not claiming rights is harmless and allowed.
    const revoke = await learn(t, 'learning_consent', { ...valid, granted: false, authorized_rightsholder: false })
    assert.equal(revoke.status, 200)
  })

  test('withdraw_learning, my_learning and the operator actions are strict too', async () => {
    await refused('withdraw_learning', { key })
    await refused('withdraw_learning', { key, record_id: 'nope' })
    await refused('withdraw_learning', { key, record_id: recordId, extra: 1 })
    for (const fields of [{ after: -1 }, { limit: 0 }, { limit: 201 }, { consent_after: 'x' }, { extra: 1 }]) {
      await refused('my_learning', { key, ...fields })
    }
    const operatorCases: Array<[string, Record<string, unknown>]> = [
      ['approve_learning', { record_id: recordId }],
      ['approve_learning', { record_id: recordId, version: 0 }],
      ['approve_learning', { record_id: 'x', version: 1 }],
      ['reject_learning', { record_id: recordId, extra: 1 }],
      ['list_learning', { review: 'withdrawn' }],
      ['list_learning', { limit: 500 }],
      ['export_research', { after: -1 }],
      ['export_research', { limit: 0 }],
    ]
    for (const [action, fields] of operatorCases) {
      const before = await storedState(t.server.database.db)
      const reply = await op<ErrorBody>(t, action, fields)
      assert.equal(reply.status, 400, `${action} ${JSON.stringify(fields)}`)
      assert.equal(reply.body.error.code, 'invalid_request')
      assert.equal(await storedState(t.server.database.db), before)
    }
  })

  test('GET /api/learning validates its known parameters and views', async () => {
    for (const query of ['after=-1', 'limit=0', 'limit=201', 'after=abc', 'view=nope']) {
      const reply = await t.get<ErrorBody>(`/api/learning?${query}`)
      assert.equal(reply.status, 400, query)
      assert.equal(reply.body.error.code, 'invalid_request')
    }
    assert.equal((await t.get('/api/learning?unknown=1')).status, 200, 'unknown parameters are ignored')
    const unknownAction = await learn<ErrorBody>(t, 'learn_everything', { key })
    assert.deepEqual([unknownAction.status, unknownAction.body.error.code], [400, 'unknown_action'])
  })
})
