/**
 * The one idempotency rule, tested on every action that takes a client_id (found from the registry's
 * schemas, not listed by hand): the same payload again answers the original with duplicate true and
 * stores nothing more; each field changed under the same client_id answers 409 and changes nothing.
 */
import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import type { RegisteredAction } from '../../src/core/registry.ts'
import { standInRefs } from '../../src/core/examples.ts'
import { call, examples, registry } from '../support/examples.ts'
import { useFixture } from '../support/servers.ts'
import { storedState } from '../support/snapshot.ts'
import { fieldNames, fieldSchema, otherValue } from '../support/variants.ts'

type Body = Record<string, unknown> & { duplicate?: boolean; error?: { code: string } }

/** Fields that are not the payload: the action, credentials and the idempotency key itself. */
const NOT_PAYLOAD = new Set(['action', 'key', 'review_key', 'operator_key', 'session_token', 'client_id'])

const writesWithClientId = registry.all.filter(
  (e) => e.def.effect === 'write' && fieldNames(e.def.input).includes('client_id'),
)

/** The answer without what may differ between an original and its replay. */
const identity = (body: Body) => {
  const { duplicate: _duplicate, note: _note, ...rest } = body
  return rest
}

describe('idempotency on every client_id write', () => {
  const { t, f } = useFixture()

  test('the registry has client_id writes to check', () => {
    const names = writesWithClientId.map((e) => e.def.name)
    for (const name of ['contribute', 'feedback', 'save_shared_memory', 'review_feedback', 'submit_draft'])
      assert.ok(names.includes(name), name)
  })

  for (const entry of writesWithClientId) {
    for (const [shape, fields] of shapes(entry)) {
      const name = shape === 0 ? entry.def.name : `${entry.def.name} (shape ${shape + 1})`

      /** A fresh caller (so spacing rules do not interfere) and this shape's example under one client_id. */
      const original = async (): Promise<{ input: Record<string, unknown>; first: Body }> => {
        const caller = await t.join('Idempotent', 'matrix-model')
        t.clock.advance(31)
        const input = examples(entry.def.name, { ...f, caller })[shape] as Record<string, unknown>
        const reply = await call<Body>(t, entry, input)
        assert.equal(reply.status, 200, `${name}: ${JSON.stringify(reply.body)}`)
        assert.equal(reply.body.duplicate, false)
        return { input, first: reply.body }
      }

      test(`${name}: the same payload again answers the original, duplicate true, and stores nothing`, async () => {
        const { input, first } = await original()
        const stored = await storedState(t.server.database.db)
        t.clock.advance(1)
        const again = await call<Body>(t, entry, input)
        assert.equal(again.status, 200)
        assert.equal(again.body.duplicate, true)
        assert.deepEqual(identity(again.body), identity(first))
        assert.equal(await storedState(t.server.database.db), stored)
      })

      for (const field of fields) {
        test(`${name}: a changed ${field} under the same client_id answers 409 and changes nothing`, async (ctx) => {
          const { input } = await original()
          const value = otherValue(fieldSchema(entry.def.input, field, input), input[field])
          const variant = { ...input, [field]: value }
          if (value === undefined || !valid(entry, variant)) {
            ctx.skip(`no other valid value for ${field} in this shape`)
            return
          }
          const stored = await storedState(t.server.database.db)
          const reply = await call<Body>(t, entry, variant)
          assert.equal(reply.status, 409, `${name} ${field}=${JSON.stringify(value)}: ${JSON.stringify(reply.body)}`)
          assert.equal(reply.body.error?.code, 'idempotency_conflict')
          assert.equal(await storedState(t.server.database.db), stored)
        })
      }
    }
  }
})

/** Each example shape of the action with the payload fields that shape declares. */
function shapes(entry: RegisteredAction): Array<[number, string[]]> {
  return examples(entry.def.name, standInRefs()).map((input, shape) => [
    shape,
    fieldNames(entry.def.input, input).filter((field) => !NOT_PAYLOAD.has(field)),
  ])
}

function valid(entry: RegisteredAction, input: Record<string, unknown>): boolean {
  try {
    entry.validateBody({ action: entry.def.name, ...input })
    return true
  } catch {
    return false
  }
}
