/**
 * Rules that hold for many actions, tested on every action they apply to. Which actions a paused or
 * suspended participant, a revoked key and paused writes must refuse is derived from the registry
 * (auth, effect, allowPaused), never listed by hand, so a new action is covered the day it lands.
 */
import assert from 'node:assert/strict'
import { before, describe, test } from 'node:test'
import type { RegisteredAction } from '../../src/core/registry.ts'
import { call, example, makeFixture, registry, type Fixture } from '../support/examples.ts'
import { useFixture } from '../support/servers.ts'
import { useServer } from '../support/harness.ts'
import { op } from '../support/operator.ts'
import { storedState } from '../support/snapshot.ts'
import { codeOf } from '../support/errors.ts'

const participantActions = registry.all.filter((e) => e.def.auth === 'participant')

/**
 * DESIGN.md: a paused participant may resume, rotate or revoke the key and read (private bookmarks
 * included); every other write answers participant_paused. Pausing again is harmless. The rule is
 * pinned here, not read from the actions' own flags, so a flag set wrongly fails this test.
 */
const PAUSED_MAY_WRITE = new Set(['pause', 'resume', 'rotate_key', 'revoke_key'])
const pausedMay = (entry: RegisteredAction) => entry.def.effect === 'read' || PAUSED_MAY_WRITE.has(entry.def.name)

describe('every registry action has a valid example input', () => {
  test('every action declares at least one example (ActionDef.examples)', () => {
    const missing = registry.all.filter((e) => e.def.examples.length === 0).map((e) => e.def.name)
    assert.deepEqual(missing, [], 'add an example input to these actions')
  })
})

describe('participant state is enforced on every action that takes a key', () => {
  const { t, f } = useFixture()

  /** A fresh caller put into the state, then the action with the fixture's example input. */
  async function inState(entry: RegisteredAction, enter: (caller: { id: string; key: string }) => Promise<void>) {
    const caller = await t.join('Stateful', 'matrix-model')
    await enter(caller)
    const before = await storedState(t.server.database.db)
    const reply = await call(t, entry, example(entry.def.name, { ...f, caller }))
    return { reply, unchanged: async () => assert.equal(await storedState(t.server.database.db), before) }
  }

  for (const entry of participantActions) {
    const { name, effect } = entry.def
    const allowed = pausedMay(entry)

    test(`${name}: a paused participant is ${allowed ? 'allowed' : 'refused with 403 participant_paused'}`, async () => {
      const { reply, unchanged } = await inState(entry, async (c) => {
        assert.equal((await t.act('pause', { key: c.key })).status, 200)
      })
      if (allowed) {
        assert.notEqual(codeOf(reply.body), 'participant_paused')
      } else {
        assert.equal(reply.status, 403)
        assert.equal(codeOf(reply.body), 'participant_paused')
        await unchanged()
      }
    })

    test(`${name}: a suspended participant is ${effect === 'write' ? 'refused with 403 participant_suspended' : 'allowed to read'}`, async () => {
      const { reply, unchanged } = await inState(entry, async (c) => {
        assert.equal(
          (await op(t, 'suspend_participant', { reason_code: 'other', participant_id: c.id, reason: 'matrix' })).status,
          200,
        )
      })
      if (effect === 'write') {
        assert.equal(reply.status, 403)
        assert.equal(codeOf(reply.body), 'participant_suspended')
        await unchanged()
      } else {
        assert.equal(reply.status, 200, JSON.stringify(reply.body))
      }
    })

    test(`${name}: a revoked key is refused with 403 key_revoked, private reads included`, async () => {
      const { reply, unchanged } = await inState(entry, async (c) => {
        assert.equal((await t.act('revoke_key', { key: c.key })).status, 200)
      })
      assert.equal(reply.status, 403)
      assert.equal(codeOf(reply.body), 'key_revoked')
      await unchanged()
    })
  }
})

describe('paused writes refuse every write but the operators own, and no read', () => {
  const { t } = useServer()
  let f: Fixture
  before(async () => {
    f = await makeFixture(t)
    assert.equal((await op(t, 'pause_writes', { reason_code: 'other', reason: 'matrix' })).status, 200)
  })

  for (const entry of registry.all) {
    const { name, effect, auth } = entry.def
    if (auth === 'operator') continue
    const refused = effect === 'write'
    test(`${name}: ${refused ? 'refused with 503 writes_paused and Retry-After' : 'still answers'}`, async () => {
      const before = await storedState(t.server.database.db)
      const reply = await call(t, entry, example(name, f))
      if (refused) {
        assert.equal(reply.status, 503, JSON.stringify(reply.body))
        assert.equal(codeOf(reply.body), 'writes_paused')
        assert.ok(Number(reply.headers.get('retry-after')) > 0)
        assert.equal(await storedState(t.server.database.db), before, 'nothing changed')
      } else {
        assert.equal(reply.status, 200, JSON.stringify(reply.body))
        // Pins `effect`: an action marked read that stores anything would pass paused writes.
        assert.equal(await storedState(t.server.database.db), before, `${name} is a read: it stores nothing`)
      }
    })
  }

  test('refusals of paused writes are not logged as errors', () => {
    const errors = t.logs.filter((line) => /"level":50/.test(line))
    assert.deepEqual(errors, [])
  })
})
