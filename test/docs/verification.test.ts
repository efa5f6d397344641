import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { createPrivateKey } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { test } from 'node:test'
import { TEST_SIGNING_KEY } from '../../src/config.ts'
import { GENESIS, contributionRecord, nextChainHash } from '../../src/services/receipts/records.ts'
import { Signer } from '../../src/services/receipts/signer.ts'

const doc = readFileSync(new URL('../../docs/verification.md', import.meta.url), 'utf8')

test("the guide's worked example is what the server signs and chains, and its Node snippet checks it", () => {
  const signer = new Signer(createPrivateKey(TEST_SIGNING_KEY))
  const record = contributionRecord({
    id: 1,
    participant_id: '0f8b1c2e-4a5d-4e6f-8a9b-0c1d2e3f4a5b',
    room: 'connection',
    kind: 'conversation',
    reply_to: null,
    created_at: '2026-11-29T08:00:00.000Z',
    content_digest: 'c8dcc67d75dd7eaa8e5c996cda67286c0775bf3c266a6b2e87418b3ae2eb9b65',
  })
  const chainHash = nextChainHash(GENESIS, record).toString('hex')
  assert.ok(doc.includes(signer.jwk.x))
  assert.ok(doc.includes(signer.sign(record)))
  assert.ok(doc.includes(chainHash))
  const snippet = /```js\n([\s\S]*?)```/.exec(doc)?.[1]
  assert.ok(snippet)
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', snippet], { encoding: 'utf8' })
  assert.equal(out.trim(), `receipt ok; chain_hash after record 1: ${chainHash}`)
})
