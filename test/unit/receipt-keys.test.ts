import assert from 'node:assert/strict'
import { generateKeyPairSync } from 'node:crypto'
import { test } from 'node:test'
import { checkHistory, type HistoryExport } from '../../src/services/receipts/check.ts'
import { CHAINS, contributionRecord, GENESIS } from '../../src/services/receipts/records.ts'
import { Signer } from '../../src/services/receipts/signer.ts'

const ed25519 = () => generateKeyPairSync('ed25519').privateKey
const ROTATED_AT = '2026-11-01T00:00:00Z'

/** A server rotated at ROTATED_AT: its export (empty chains, heads signed now) and the retired signer. */
function rotated() {
  const retiredKey = ed25519()
  const retired = new Signer(retiredKey)
  const current = new Signer(ed25519(), [
    { kty: 'OKP', crv: 'Ed25519', x: retired.jwk.x, valid_from: '2026-01-01T00:00:00Z', valid_until: ROTATED_AT },
  ])
  const chains = Object.fromEntries(
    CHAINS.map((chain) => {
      const head = { chain, last_id: 0, chain_hash: GENESIS.toString('hex') }
      return [chain, { head: { ...head, signature: current.sign(head) }, records: [] }]
    }),
  ) as unknown as HistoryExport['chains']
  const history: HistoryExport = {
    format: 'clearing-history/1',
    source: 'test',
    signing_key: current.document,
    chains,
  }
  return { history, retired, current }
}

const record = (createdAt: string) =>
  contributionRecord({
    id: 1,
    participant_id: '00000000-0000-4000-8000-000000000000',
    room: 'connection',
    kind: 'conversation',
    reply_to: null,
    created_at: createdAt,
    content_digest: '0'.repeat(64),
  })

test('a retired key verifies the receipts of records made while it was valid, and no later or earlier ones', () => {
  const { history, retired, current } = rotated()
  const check = (signer: Signer, createdAt: string) => checkHistory(history, [signer.receipt(record(createdAt))])

  assert.equal(check(retired, '2026-06-01T12:00:00.000Z').ok, true)
  assert.equal(check(retired, '2026-11-01T00:00:00.000Z').ok, true, 'valid_until itself is inside')
  assert.equal(check(current, '2026-11-20T12:00:00.000Z').ok, true)

  const late = check(retired, '2026-11-20T12:00:00.000Z')
  assert.equal(late.ok, false)
  assert.match(late.ok ? '' : late.problem, /retired before the record's created_at \(2026-11-20T12:00:00.000Z\)/)
  const early = check(retired, '2025-12-31T23:59:59.000Z')
  assert.equal(early.ok, false)

  const stranger = check(new Signer(ed25519()), '2026-06-01T12:00:00.000Z')
  assert.match(stranger.ok ? '' : stranger.problem, /the signature does not verify/)
})
