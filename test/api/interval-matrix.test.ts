import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { call, example, registry } from '../support/examples.ts'
import { useFixture } from '../support/servers.ts'
import { codeOf } from '../support/errors.ts'
import { PLANTED } from '../support/secrets.ts'

type Input = Record<string, unknown>

const INTERVAL = 30

/**
 * Every kind of refused request a write with a posting interval can meet, made from its valid input:
 * each answers its error, and none may count as the participant's accepted post. `undefined` where
 * the action's input has no such field. `used` is a client_id the participant already posted with.
 */
const FAILURES: Record<
  string,
  { status: number; code: string; make: (valid: Input, used: string) => Input | undefined }
> = {
  'an unknown field': { status: 400, code: 'invalid_request', make: (valid) => ({ ...valid, unexpected: 1 }) },
  'a text over its bound': {
    status: 400,
    code: 'invalid_request',
    make: (valid) => ('content' in valid ? { ...valid, content: 'x'.repeat(20_000) } : undefined),
  },
  'an empty text': {
    status: 400,
    code: 'invalid_request',
    make: (valid) => ('content' in valid ? { ...valid, content: '   ' } : undefined),
  },
  'a secret in a stored text': {
    status: 400,
    code: 'contains_secret',
    make: (valid) => ('content' in valid ? { ...valid, content: `my token ${PLANTED.github}` } : undefined),
  },
  'a reply to nothing': {
    status: 400,
    code: 'not_found',
    make: (valid) => ('reply_to' in valid ? { ...valid, reply_to: 999_999_999 } : undefined),
  },
  'a used client_id with another payload': {
    status: 409,
    code: 'idempotency_conflict',
    make: (valid, used) =>
      'client_id' in valid && 'content' in valid
        ? { ...valid, client_id: used, content: 'another payload' }
        : undefined,
  },
}

const spaced = registry.all.filter((entry) => entry.quotas.includes('post'))

describe('a failed or invalid request never spends the posting interval (every write under the post policy)', () => {
  const { t, f } = useFixture({ config: { contributionIntervalSeconds: INTERVAL } })

  test('the registry has writes under the posting interval', () => {
    assert.deepEqual(
      spaced.map((entry) => entry.def.name),
      ['contribute'],
    )
  })

  for (const entry of spaced) {
    /** A participant who posted once, the interval since passed, and a fresh valid input of theirs. */
    const ready = async () => {
      const me = await t.join()
      const valid = (): Input => ({ ...example(entry.def.name, f), key: me.key })
      const first = { ...valid(), client_id: `first-${me.id}` }
      const accepted = await call(t, entry, first)
      assert.equal(accepted.status, 200, JSON.stringify(accepted.body))
      t.clock.advance(INTERVAL)
      return { valid, used: String(first.client_id) }
    }

    for (const [kind, failure] of Object.entries(FAILURES)) {
      test(`${entry.def.name}: ${kind} is refused and a valid request right after it is accepted`, async (s) => {
        const { valid, used } = await ready()
        const bad = failure.make(valid(), used)
        if (!bad) return s.skip(`${entry.def.name} has no such field`)
        const refused = await call(t, entry, bad)
        assert.equal(refused.status, failure.status, JSON.stringify(refused.body))
        assert.equal(codeOf(refused.body), failure.code)
        const next = await call(t, entry, valid())
        assert.equal(next.status, 200, `${kind} spent the interval: ${JSON.stringify(next.body)}`)
      })
    }

    test(`${entry.def.name}: a request refused for the interval itself does not restart it`, async () => {
      const me = await t.join()
      const valid = (): Input => ({ ...example(entry.def.name, f), key: me.key })
      assert.equal((await call(t, entry, valid())).status, 200)
      t.clock.advance(INTERVAL - 10)
      assert.equal((await call(t, entry, valid())).status, 429)
      t.clock.advance(10)
      const next = await call(t, entry, valid())
      assert.equal(next.status, 200, JSON.stringify(next.body))
    })

    test(`${entry.def.name}: without the interval passing, a second valid request is refused (the check can fail)`, async () => {
      const { valid } = await ready()
      assert.equal((await call(t, entry, valid())).status, 200)
      assert.equal((await call(t, entry, valid())).status, 429)
    })
  }
})
