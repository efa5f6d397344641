/**
 * The whole consent matrix: each purpose granted, revoked or never given, by the source's author or
 * attempted by someone else, before and after approval, after a change of mind and after withdrawal,
 * checked against both public lesson reads, the research export and the author's own flags.
 */
import assert from 'node:assert/strict'
import { before, describe, test } from 'node:test'
import { post, useServer } from '../../support/harness.ts'
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
} from '../../support/learning.ts'
import { op } from '../../support/operator.ts'

type Decision = 'never' | 'granted' | 'revoked' | 'other'
const DECISIONS: Decision[] = ['never', 'granted', 'revoked', 'other']
type Purpose = 'memory' | 'research_training'

interface Cell {
  memory: Decision
  research: Decision
  /** The operator approves this cell's record in the approval phase. */
  approve: boolean
  approved: boolean
  source: number
  recordId: string
  withdrawn: boolean
}

const label = (c: Cell) => `memory ${c.memory}, research ${c.research}, ${c.approve ? 'approved' : 'not approved'}`

describe('the consent matrix against public lessons, the export and my_learning', () => {
  const { t, ann, bob, eve } = useServer({
    participants: { ann: ['Ann', 'model-a'], bob: ['Bob', 'model-b'], eve: ['Eve', 'model-e'] },
  })
  const cells: Cell[] = []

  /** What the rules of DESIGN.md say about a cell in its current state. */
  const isPublic = (c: Cell) => c.approved && c.memory === 'granted' && !c.withdrawn
  const isExported = (c: Cell) => c.research === 'granted' && !c.withdrawn

  async function decide(c: Cell, purpose: Purpose, decision: Decision) {
    if (decision === 'granted' || decision === 'revoked') {
      assert.equal((await consent(t, bob.key, c.source, purpose, true)).status, 200)
    }
    if (decision === 'revoked') assert.equal((await consent(t, bob.key, c.source, purpose, false)).status, 200)
    if (decision === 'other') {
      // Neither a stranger nor the record's own author may decide for Bob's contribution.
      for (const key of [eve.key, ann.key]) {
        const refused = await consent(t, key, c.source, purpose, true)
        assert.equal(refused.status, 403)
        assert.equal(refused.body.error.code, 'not_rightsholder')
      }
    }
  }

  async function expectState(phase: string) {
    const live = cells.filter((c) => !c.withdrawn)
    const lessons = await publicLessons(t, 7)
    assert.deepEqual(
      lessons.map((l) => l.record_id).sort(),
      cells
        .filter(isPublic)
        .map((c) => c.recordId)
        .sort(),
      `${phase}: public lessons`,
    )
    assert.ok(
      lessons.every((l) => l.name === 'Ann' && l.lesson !== null),
      `${phase}: lessons carry text and author`,
    )
    const exported = await exportAll(t, 5)
    assert.deepEqual(
      [...exported.ids].sort(),
      cells
        .filter(isExported)
        .map((c) => c.recordId)
        .sort(),
      `${phase}: research export`,
    )
    const own = new Map((await mine(t, ann.key)).map((r) => [r.record_id, r]))
    assert.equal(own.size, live.length + 1, `${phase}: my_learning lists the live records (and the extra one)`)
    for (const c of live) {
      const r = own.get(c.recordId)
      assert.equal(r?.public, isPublic(c), `${phase}: public flag of ${label(c)}`)
      assert.equal(r?.exportable, isExported(c), `${phase}: exportable flag of ${label(c)}`)
      const source = r?.sources.find((s) => s.contribution_id === c.source)
      const state = (d: Decision) => (d === 'granted' ? 'granted' : d === 'revoked' ? 'revoked' : 'not_given')
      assert.deepEqual([source?.memory, source?.research_training], [state(c.memory), state(c.research)])
    }
    for (const c of cells.filter((x) => x.withdrawn)) assert.equal(own.has(c.recordId), false)
  }

  before(async () => {
    // Ann's own contribution is a second source of every record, consented for both purposes by her.
    const own = (await post(t, ann.key, { content: 'what Ann tried' })).body.id
    for (const purpose of ['memory', 'research_training'] as const) {
      assert.equal((await consent(t, ann.key, own, purpose, true)).status, 200)
    }
    for (const memory of DECISIONS) {
      for (const research of DECISIONS) {
        for (const approve of [false, true]) {
          const source = (await post(t, bob.key, { content: `Bob ${memory} ${research} ${approve}` })).body.id
          const { record_id } = await saved(t, record(ann.key, [source, own], { lesson: `lesson ${source}` }))
          const cell: Cell = {
            memory,
            research,
            approve,
            approved: false,
            source,
            recordId: record_id,
            withdrawn: false,
          }
          await decide(cell, 'memory', memory)
          await decide(cell, 'research_training', research)
          cells.push(cell)
        }
      }
    }
    // A record whose second source (Bob's) never had any consent: blocked although Ann's source consents.
    const unconsented = (await post(t, bob.key, { content: 'never consented' })).body.id
    const blocked = await saved(t, record(ann.key, [own, unconsented]))
    await approve(t, blocked.record_id)
  })

  test('before any approval: no public lesson; the export follows research consent alone', async () => {
    await expectState('before approval')
  })

  test('after approval: public exactly when approved and the memory consent is granted by the author', async () => {
    for (const c of cells.filter((x) => x.approve)) {
      const result = await approve(t, c.recordId)
      c.approved = true
      assert.equal(result.public, c.memory === 'granted', `approve answers whether ${label(c)} is public`)
    }
    await expectState('after approval')
  })

  test('a change of mind takes effect at the next read: revoking hides, granting again shows', async () => {
    for (const c of cells) {
      for (const [purpose, field] of [
        ['memory', 'memory'],
        ['research_training', 'research'],
      ] as const) {
        if (c[field] === 'granted' || c[field] === 'revoked') {
          const grant = c[field] === 'revoked'
          assert.equal((await consent(t, bob.key, c.source, purpose, grant)).status, 200)
          c[field] = grant ? 'granted' : 'revoked'
        }
      }
    }
    await expectState('after changes of mind')
  })

  test('after withdrawal: the record leaves every read and the export, whatever its consents', async () => {
    for (const [i, c] of cells.entries()) {
      if (i % 2 === 1) continue
      const reply = await learn<{ withdrawn: boolean }>(t, 'withdraw_learning', { key: ann.key, record_id: c.recordId })
      assert.equal(reply.status, 200)
      c.withdrawn = true
    }
    await expectState('after withdrawal')
    // Consent decisions after withdrawal change nothing for the withdrawn records.
    for (const c of cells.filter((x) => x.withdrawn)) {
      await consent(t, bob.key, c.source, 'memory', true)
      await consent(t, bob.key, c.source, 'research_training', true)
      c.memory = 'granted'
      c.research = 'granted'
    }
    await expectState('after consents to withdrawn records')
  })

  test('refused consents recorded nothing: the stranger and the record author have no consents of their own', async () => {
    const eves = await learn<{ consents: unknown[] }>(t, 'my_learning', { key: eve.key })
    assert.deepEqual(eves.body.consents, [])
    const anns = await learn<{ consents: Array<{ contribution_id: number }> }>(t, 'my_learning', { key: ann.key })
    assert.ok(anns.body.consents.every((c) => !cells.some((cell) => cell.source === c.contribution_id)))
  })

  test('a consent decision answers what is now in force; an unknown contribution is not_found', async () => {
    const source = (await post(t, bob.key)).body.id
    const granted = await learn<Record<string, unknown>>(t, 'learning_consent', {
      key: bob.key,
      contribution_id: source,
      purpose: 'memory',
      granted: true,
      authorized_rightsholder: true,
      terms_version: 'learning-2026-11-22',
    })
    assert.equal(granted.status, 200)
    assert.equal(granted.body.contribution_id, source)
    assert.equal(granted.body.granted, true)
    assert.equal(granted.body.terms_version, 'learning-2026-11-22')
    assert.equal(granted.body.authorized_rightsholder, true)
    const missing = await consent(t, bob.key, 999_999, 'memory', true)
    assert.equal(missing.status, 400)
    assert.equal((missing.body as ErrorBody).error.code, 'not_found')
  })

  test('memory_allowed false cannot be approved; training_allowed false is never exported', async () => {
    const source = (await post(t, bob.key)).body.id
    for (const purpose of ['memory', 'research_training'] as const) await consent(t, bob.key, source, purpose, true)
    const closed = await saved(t, record(ann.key, [source], { memory_allowed: false, training_allowed: false }))
    const refused = await op<ErrorBody>(t, 'approve_learning', { record_id: closed.record_id, version: 1 })
    assert.equal(refused.status, 409)
    assert.equal(refused.body.error.code, 'state_conflict')
    assert.ok(!(await publicLessons(t)).some((l) => l.record_id === closed.record_id))
    assert.ok(!(await exportAll(t)).ids.includes(closed.record_id))
  })
})
