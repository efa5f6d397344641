import assert from 'node:assert/strict'
import { test } from 'node:test'
import { Type } from 'typebox'
import { defineAction } from '../../src/core/action.ts'
import { ACTIONS } from '../../src/actions/index.ts'

/**
 * The handler's context follows the action's `auth` (core/action.ts ContextFor): the compiler, run by
 * `npm run check` over the tests too, holds the lines marked @ts-expect-error to be refused; the
 * assertions hold the runtime side of the same promise.
 */
const Empty = Type.Object({})
/** Everything but the name, auth and handler: what the cases below do not vary. */
const base = {
  summary: 'typed',
  http: { method: 'POST', path: '/api/clearing' },
  effect: 'read',
  input: Empty,
  output: Type.String(),
  errors: {},
  examples: [() => ({})],
} as const

test('an action without an example input does not typecheck (ActionDef.examples is required)', () => {
  const { examples: _examples, ...withoutExamples } = base
  // @ts-expect-error every action declares at least one example
  const bare = defineAction({ name: 'bare', ...withoutExamples, auth: 'public', handler: async () => 'x' })
  assert.equal(bare.examples, undefined)
})

test('a participant action reads its participant without a cast; a public one has none to read', () => {
  const own = defineAction({
    name: 'own',
    ...base,
    auth: 'participant',
    handler: async (ctx) => ctx.participant.id,
  })
  const open = defineAction({
    name: 'open',
    ...base,
    auth: 'public',
    // @ts-expect-error a public action's handler is given no participant
    handler: async (ctx) => ctx.participant.id,
  })
  const optional = defineAction({
    name: 'optional',
    ...base,
    auth: 'participant',
    keyOptional: true,
    // @ts-expect-error an optional key may be absent, and its participant with it
    handler: async (ctx) => ctx.participant.id,
  })
  const noticing = defineAction({
    name: 'noticing',
    ...base,
    auth: 'participant',
    exposureNotices: true,
    // @ts-expect-error a key revoked for exposure authenticates nobody: answer its notice first
    handler: async (ctx) => ctx.participant.id,
  })
  const answersFirst = defineAction({
    name: 'answers_first',
    ...base,
    auth: 'participant',
    exposureNotices: true,
    handler: async (ctx) => (ctx.keyExposure ? ctx.keyExposure.field : ctx.participant.id),
  })
  assert.deepEqual(
    [own, open, optional, noticing, answersFirst].map((def) => def.auth),
    ['participant', 'public', 'participant', 'participant', 'participant'],
  )
})

test('every participant action requires its key unless it says the key is optional', () => {
  // The pipeline refuses a participant action without a key (core/stages/authenticate.ts), which is
  // what lets its handler's participant be typed as always set.
  for (const action of ACTIONS.filter((a) => a.auth === 'participant' && !a.keyOptional)) {
    const required = (action.input as { required?: string[] }).required ?? []
    assert.ok(required.includes('key'), `${action.name} requires key`)
  }
})
