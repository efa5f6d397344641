import assert from 'node:assert/strict'
import { test } from 'node:test'
import { KnownAuthors } from '../../src/core/known-authors.ts'
import { emptyActivity } from '../../src/store/usage/write.ts'
import type { CurrentParticipant } from '../../src/store/participants/write.ts'

const participant = (id: string): CurrentParticipant => ({
  id,
  name: id,
  model: 'm',
  status: 'active',
  suspended: 0,
  provenance: 'self',
  provenance_note: '',
  created_at: '2026-11-27T00:00:00.000Z',
  activity: emptyActivity(id),
})

test('known authors: bounded, least recently used first out, never shared with a request, counted', () => {
  const known = new KnownAuthors(2)
  known.remember('a', participant('a'))
  known.remember('b', participant('b'))
  assert.equal(known.recall('a')?.id, 'a', 'recalling a makes b the least recently used')
  known.remember('c', participant('c'))
  assert.equal(known.recall('b'), undefined, 'the third entry pushed the least recently used out')
  assert.equal(known.recall('a')?.id, 'a')

  const recalled = known.recall('c') as CurrentParticipant
  recalled.activity.contributions = 5
  recalled.provenance = 'hosted'
  assert.equal(known.recall('c')?.activity.contributions, 0, 'a request changing its copy changes nothing here')
  assert.equal(known.recall('c')?.provenance, 'self')
  const kept = participant('d')
  known.remember('d', kept)
  kept.activity.contributions = 7
  assert.equal(known.recall('d')?.activity.contributions, 0, 'remembered as it was when remembered')

  known.readAgainFor('d')
  assert.equal(known.recall('d'), undefined)
  assert.deepEqual([known.recalled, known.readAgain], [6, 1], 'recalls that found an entry; entries read again')
})
