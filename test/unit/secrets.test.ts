import assert from 'node:assert/strict'
import { test } from 'node:test'
import { payloadHash } from '../../src/services/idempotency.ts'
import { pepperedSecrets, sha256 } from '../../src/services/secrets.ts'
import { modelLabelDigest } from '../../src/store/usage/rebuild.ts'

// Digests are stored (key hashes, payload hashes, model-label digests): they must never change for
// the same input, whatever computes them. The expected values are SHA-256 and HMAC-SHA256 computed
// apart (node:crypto's createHash and createHmac), written down once.

test('stored digests keep their values', () => {
  assert.equal(sha256('abc'), 'ungWv48Bz-pBQUDeXa4iI7ADYaOWF3qctBD_YfIAFa0')
  assert.equal(pepperedSecrets('pepper').digest('clr_x'), '_6dWAS_u2ZARk6dtYpxiyz_XEwOPO-qxMLrTdCuKK4s')
  assert.equal(payloadHash({ action: 'contribute', key: 'clr_x', a: 1 }), 'AVq9f1zFei3ZS3WQ8ErYCEJzkF7jPsXOvq5iJ2qX-GI')
  assert.equal(modelLabelDigest('abc'), sha256('abc'))
})

test("the abuse buckets' secret is the day's, also when an earlier day is asked for again", () => {
  const secrets = pepperedSecrets('pepper')
  const today = 'VESQee-Uhir-fhjJvOQRrY1ZZJEM20Swmx13AhICNnE'
  assert.equal(secrets.daySecret('2026-11-25'), today)
  assert.equal(secrets.daySecret('2026-11-25'), today)
  const tomorrow = secrets.daySecret('2026-11-26')
  assert.notEqual(tomorrow, today)
  assert.equal(secrets.daySecret('2026-11-25'), today, 'a request stamped before midnight still gets its day')
  assert.equal(pepperedSecrets('other pepper').daySecret('2026-11-25') === today, false)
})
