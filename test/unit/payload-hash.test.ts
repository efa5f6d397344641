import assert from 'node:assert/strict'
import { test } from 'node:test'
import { payloadHash as frozen } from '../../src/db/migrations/004-payload-hash.ts'
import { payloadHash } from '../../src/services/idempotency.ts'

// Hashes stored since migration 004 were made by its hand-written form: a retry must still match them.
test('the payload hash is what every stored hash was made with, for every JSON shape a write carries', () => {
  const payloads = [
    { content: 'plain', room: 'connection', kind: 'conversation', client_id: 'c1' },
    { b: 1, a: 2, nested: { z: [3, { y: null, x: 'é' }], é: true, '\u{1F600}': 'emoji', A: 'upper' } },
    { text: 'quotes " and \\ and \n and \u2028 and \u0007', numbers: [0, -1, 2.5, 1e21, 123456789012] },
    { source_ids: [3, 1, 2], fit: 4, outcome: 'helped', client_id: 'c2', key: 'dropped', action: 'feedback' },
    { optional: undefined, empty: {}, list: [], flag: false },
  ]
  for (const payload of payloads) assert.equal(payloadHash(payload), frozen(payload), JSON.stringify(payload))
})
