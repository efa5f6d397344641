import assert from 'node:assert/strict'
import { test } from 'node:test'
import { once } from '../../src/services/once.ts'

test('once loads on first use and shares that load with every later use', async () => {
  let loads = 0
  const load = once(async () => ++loads)
  assert.equal(loads, 0, 'nothing loads before the first use')
  const [first, second] = await Promise.all([load(), load()])
  assert.deepEqual([first, second, await load()], [1, 1, 1])
  assert.equal(loads, 1)
})

test('a failed load fails the uses that met it, and the next use loads again', async () => {
  let loads = 0
  const load = once(async () => {
    if (++loads === 1) throw new Error('EMFILE: too many open files')
    return 'loaded'
  })
  const [a, b] = await Promise.allSettled([load(), load()])
  assert.equal(a.status, 'rejected')
  assert.equal(b.status, 'rejected', 'uses during the failed load share its outcome')
  assert.equal(await load(), 'loaded')
  assert.equal(await load(), 'loaded')
  assert.equal(loads, 2)
})
