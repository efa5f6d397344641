import assert from 'node:assert/strict'
import { test } from 'node:test'
import { Type } from 'typebox'
import { defineAction, type AnyAction } from '../../src/core/action.ts'
import type { DeclaredErrors } from '../../src/services/errors.ts'
import { ServiceError } from '../../src/services/errors.ts'
import { Registry } from '../../src/core/registry.ts'

/** A read action that declares the given codes; nothing else about it matters here. */
function declaring(name: string, errors: DeclaredErrors): AnyAction {
  return defineAction({
    name,
    summary: 'declares errors',
    http: { method: 'POST', path: '/api/clearing' },
    auth: 'public',
    effect: 'read',
    input: Type.Object({}),
    output: Type.Object({}),
    errors,
    examples: [() => ({})],
    handler: async () => ({}),
  })
}

test('two actions declaring one code with one status share it in the merged table', () => {
  const registry = new Registry([declaring('a', { lost_thing: 400 }), declaring('b', { lost_thing: 400 })])
  assert.equal(registry.errorTable.statusOf('lost_thing'), 400)
  // The core's own codes are in the same table.
  assert.equal(registry.errorTable.statusOf('rate_limited'), 429)
  assert.deepEqual(registry.get('a')?.errors.includes('lost_thing'), true)
})

test('one code declared with two statuses by two actions is refused at construction, naming both', () => {
  assert.throws(
    () => new Registry([declaring('a', { lost_thing: 400 }), declaring('b', { lost_thing: 404 })]),
    /lost_thing has two statuses: 400 in action a, 404 in action b/,
  )
})

test('a core code declared by an action with another status is refused, naming the core table', () => {
  assert.doesNotThrow(() => new Registry([declaring('a', { rate_limited: 429 })]))
  assert.throws(
    () => new Registry([declaring('a', { rate_limited: 403 })]),
    /429 in services\/errors.ts, 403 in action a/,
  )
})

test('a declared code must be snake_case with a 4xx or 5xx status', () => {
  assert.throws(() => new Registry([declaring('a', { 'Not Found': 400 } as DeclaredErrors)]), /snake_case/)
  assert.throws(() => new Registry([declaring('a', { lost_thing: 200 })]), /4xx or 5xx/)
})

test('a code no table knows is answered as 500 internal_error, naming the code for the log', () => {
  const { errorTable } = new Registry([declaring('a', { lost_thing: 400 })])
  assert.deepEqual(errorTable.answer(new ServiceError('lost_thing', 'gone')).status, 400)
  const unknown = errorTable.answer(new ServiceError('never_declared', 'what'))
  assert.equal(unknown.status, 500)
  assert.equal(unknown.error.code, 'internal_error')
  assert.equal(unknown.unknownCode, 'never_declared')
})
