import assert from 'node:assert/strict'
import { createPublicKey, generateKeyPairSync, verify } from 'node:crypto'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, test } from 'node:test'
import canonicalize from 'canonicalize'
import { sql } from 'kysely'
import { eraseName, findDraft, op, postDraft, submit } from '../support/operator.ts'
import { post, startServer, type TestServer, twoInstances, useServer } from '../support/harness.ts'
import { npmVerify } from '../support/verify.ts'

interface Receipt {
  record: Record<string, unknown> & { id: number; content_digest: string }
  signature: string
}
interface Jwk {
  kty: string
  crv: string
  x: string
  kid: string
  previous: Array<{ x: string; kid: string; valid_until: string }>
}
interface Head {
  chain: string
  last_id: number
  chain_hash: string
  signature: string
}

/** A receipt checked the way an outsider would: node:crypto and the served JWK, nothing of Clearing's. */
function verifies(jws: string, value: unknown, jwk: { x: string }): boolean {
  const [header, empty, signature] = jws.split('.')
  assert.equal(empty, '', 'a detached JWS has an empty payload part')
  const payload = Buffer.from(canonicalize(value) ?? '').toString('base64url')
  const key = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: jwk.x }, format: 'jwk' })
  return verify(null, Buffer.from(`${header}.${payload}`), key, Buffer.from(signature ?? '', 'base64url'))
}

async function heads(t: TestServer): Promise<Head[]> {
  const feed = await t.get<{ _clearing: { chain_heads: Head[] } }>('/feed.json')
  return feed.body._clearing.chain_heads
}

const sha256 = async (text: string) => (await import('node:crypto')).createHash('sha256').update(text).digest('hex')

describe('receipts and the hash chain', () => {
  const { t } = useServer()
  let jwk: Jwk
  let key: string
  let participant: string
  const receipts: Receipt[] = []
  before(async () => {
    jwk = (await t.get<Jwk>('/.well-known/clearing-signing-key')).body
    const me = await t.join()
    key = me.key
    participant = me.id
  })

  test('the well-known path serves the public JWK only, the descriptor names it', async () => {
    assert.deepEqual(Object.keys(jwk).sort(), ['alg', 'crv', 'kid', 'kty', 'previous', 'use', 'x'])
    assert.equal(jwk.kty, 'OKP')
    assert.equal(jwk.crv, 'Ed25519')
    assert.match(jwk.x, /^[A-Za-z0-9_-]{43}$/)
    const descriptor = await t.view<{ protocol: { verification: { signing_key: Jwk } } }>(undefined)
    assert.equal(descriptor.body.protocol.verification.signing_key.x, jwk.x)
    assert.ok(!t.logs.join('').includes('PRIVATE KEY'), 'the signing key is never logged')
  })

  test('contribute and save_shared_memory answer with receipts that verify with the public key alone', async () => {
    const first = await post(t, key, { content: 'first post', client_id: 'r-1' })
    const reply = await post(t, key, { content: 'a reply', client_id: 'r-2', reply_to: first.body.id })
    for (const answer of [first, reply]) {
      const { receipt } = answer.body as unknown as { receipt: Receipt }
      assert.ok(verifies(receipt.signature, receipt.record, jwk))
      receipts.push(receipt)
    }
    const { receipt } = reply.body as unknown as { receipt: Receipt }
    assert.deepEqual(
      { ...receipt.record, created_at: undefined },
      {
        type: 'contribution',
        id: reply.body.id,
        participant_id: participant,
        room: 'connection',
        kind: 'conversation',
        reply_to: first.body.id,
        created_at: undefined,
        content_digest: await sha256('a reply'),
      },
    )
    const header = JSON.parse(Buffer.from(receipt.signature.split('.')[0] ?? '', 'base64url').toString())
    assert.deepEqual(header, { alg: 'EdDSA', kid: jwk.kid })
    const again = await post(t, key, { content: 'a reply', client_id: 'r-2', reply_to: first.body.id })
    assert.equal(again.body.duplicate, true)
    assert.deepEqual(
      (again.body as unknown as { receipt: Receipt }).receipt,
      receipt,
      'a retry answers the same receipt',
    )
    assert.ok(!verifies(receipt.signature, { ...receipt.record, room: 'other' }, jwk), 'a changed record fails')

    const note = await t.act<{ receipt: Receipt }>('save_shared_memory', {
      key,
      expected_version: 0,
      title: 'T',
      kind: 'observation',
      content: 'note text',
      source_ids: [first.body.id],
      reason: 'why',
      client_id: 'n-1',
    })
    assert.equal(note.status, 200, JSON.stringify(note.body))
    assert.equal(note.body.receipt.record.type, 'note_revision')
    assert.equal(note.body.receipt.record.content_digest, await sha256(JSON.stringify(['T', 'note text', 'why'])))
    assert.ok(verifies(note.body.receipt.signature, note.body.receipt.record, jwk))
    receipts.push(note.body.receipt)
  })

  test('publish_draft answers with the receipt of the post it published', async () => {
    const draft = postDraft({ content: 'from outside' })
    assert.equal((await submit(t, draft)).status, 200)
    const pending = await findDraft(t, String(draft.client_id))
    const published = await op<{ post_id: number; receipt: Receipt }>(t, 'publish_draft', {
      draft_id: pending.draft_id,
    })
    assert.equal(published.status, 200, JSON.stringify(published.body))
    assert.equal(published.body.receipt.record.id, published.body.post_id)
    assert.equal(published.body.receipt.record.content_digest, await sha256('from outside'))
    assert.ok(verifies(published.body.receipt.signature, published.body.receipt.record, jwk))
    receipts.push(published.body.receipt)
  })

  test('the feed and the descriptor carry the signed heads; verify holds on the live server', async () => {
    const [posts, notes] = await heads(t)
    assert.equal(posts?.chain, 'contributions')
    assert.equal(posts?.last_id, 3)
    assert.equal(notes?.last_id, 1)
    const { signature, ...head } = posts as Head
    assert.ok(verifies(signature, head, jwk))
    const descriptor = await t.view<{ chain_heads: Head[] }>(undefined)
    assert.deepEqual(descriptor.body.chain_heads, await heads(t))
    const receiptsFile = join(mkdtempSync(join(tmpdir(), 'receipts-')), 'receipts.json')
    writeFileSync(receiptsFile, JSON.stringify(receipts))
    const checked = await npmVerify(t.url, '--receipts', receiptsFile)
    assert.equal(checked.code, 0, checked.out)
    assert.match(checked.out, /^ok: contributions 3, note_revisions 1 records .* 4 receipts verified$/)
  })

  test('quarantine and an erasure request leave the chain whole', async () => {
    const third = await post(t, key, { content: 'to be masked' })
    const masked = await op(t, 'quarantine', {
      reason_code: 'other',
      target_type: 'contribution',
      target_id: third.body.id,
      reason: 'test',
    })
    assert.equal(masked.status, 200)
    assert.equal((await eraseName(t, participant, `contribution:${third.body.id}`)).status, 200)
    const chain = await t.view<{
      records: Array<{ record: { id: number; content_digest: string }; content: string | null }>
    }>('chain', { after: third.body.id - 1, limit: 1 })
    assert.deepEqual(chain.body.records[0], {
      record: { ...chain.body.records[0]?.record, content_digest: await sha256('to be masked') },
      content: null,
      untrusted: true,
      signals: [],
    })
    const checked = await npmVerify(t.url)
    assert.equal(checked.code, 0, checked.out)
    assert.match(checked.out, /contributions 4/)
  })

  describe('tampering with stored rows is detected', () => {
    const tampered = async (change: () => Promise<unknown>) => {
      const file = join(mkdtempSync(join(tmpdir(), 'history-')), 'history.json')
      await heads(t) // the chain covers every row before the change
      await change()
      const checked = await npmVerify(t.url, '--save', file)
      return { ...checked, file }
    }
    const db = () => t.server.database.db
    const restore: Array<() => Promise<unknown>> = []
    after(async () => {
      for (const undo of restore) await undo()
    })

    test('one byte of a stored field', async () => {
      const found = await tampered(() =>
        db().updateTable('contributions').set({ room: 'connectioN' }).where('id', '=', 1).execute(),
      )
      restore.push(() => db().updateTable('contributions').set({ room: 'connection' }).where('id', '=', 1).execute())
      assert.equal(found.code, 1)
      assert.match(found.out, /broken: contributions: the chain of records 1-\d+ does not reach the signed head/)
      await restore.pop()?.()
      const text = await tampered(() =>
        db().updateTable('contributions').set({ content: 'first posT' }).where('id', '=', 1).execute(),
      )
      restore.push(() => db().updateTable('contributions').set({ content: 'first post' }).where('id', '=', 1).execute())
      assert.equal(text.code, 1)
      assert.match(text.out, /broken: contributions: record 1's text does not match its content_digest/)
      await restore.pop()?.()
      assert.equal((await npmVerify(t.url)).code, 0, 'undone, it holds again')
    })

    test('two rows reordered (ids swapped)', async () => {
      const swap = (a: number, b: number) => async () => {
        await sql`update contributions set id = -999999 where id = ${a}`.execute(db())
        await sql`update contributions set id = ${a} where id = ${b}`.execute(db())
        await sql`update contributions set id = ${b} where id = -999999`.execute(db())
      }
      // Two roots (1 and 3: 2 replies to 1), so no reply names a parent that moved.
      const found = await tampered(swap(1, 3))
      restore.push(swap(1, 3))
      assert.equal(found.code, 1)
      assert.match(found.out, /broken: contributions: the chain of records 1-4 does not reach the signed head/)
      await restore.pop()?.()
    })

    test('a removed row', async () => {
      const stored = await db().selectFrom('contributions').selectAll().where('id', '=', 2).executeTakeFirstOrThrow()
      // PostgreSQL's search column is generated: put back what was written, it recomputes the rest.
      const { search_tsv: _generated, ...row } = stored as typeof stored & { search_tsv?: unknown }
      const found = await tampered(() => db().deleteFrom('contributions').where('id', '=', 2).execute())
      restore.push(() => db().insertInto('contributions').values(row).execute())
      assert.equal(found.code, 1)
      assert.match(found.out, /broken: contributions: record 2 is missing/)
      await restore.pop()?.()
    })

    test('a forged signature, on a head or a receipt, in an export checked offline', async () => {
      const file = join(mkdtempSync(join(tmpdir(), 'history-')), 'history.json')
      const saved = await npmVerify(t.url, '--save', file)
      assert.equal(saved.code, 0, saved.out)
      assert.equal((await npmVerify(file)).code, 0, 'the export checks offline')
      const history = JSON.parse(readFileSync(file, 'utf8'))
      const forger = generateKeyPairSync('ed25519').privateKey
      const { sign } = await import('node:crypto')
      const [h] = history.chains.contributions.head.signature.split('..')
      const forged = sign(null, Buffer.from(`${h}.${Buffer.from('{}').toString('base64url')}`), forger)
      history.chains.contributions.head.signature = `${h}..${forged.toString('base64url')}`
      writeFileSync(file, JSON.stringify(history))
      const head = await npmVerify(file)
      assert.equal(head.code, 1)
      assert.match(head.out, /broken: contributions: the chain head's signature does not verify/)
      const receipt = structuredClone(receipts[0]) as Receipt
      receipt.signature = `${h}..${sign(null, Buffer.from('x'), forger).toString('base64url')}`
      const receiptsFile = join(mkdtempSync(join(tmpdir(), 'receipts-')), 'receipts.json')
      writeFileSync(receiptsFile, JSON.stringify([receipt]))
      const live = await npmVerify(t.url, '--receipts', receiptsFile)
      assert.equal(live.code, 1)
      assert.match(live.out, /broken: receipt for contribution 1: the signature does not verify/)
    })
  })
})

describe('the chain across restarts and key rotation', () => {
  test('a new server on the same database extends the same chain; old receipts verify after rotation', async () => {
    const { sharedDatabase } = await import('../support/harness.ts')
    const database = await sharedDatabase()
    try {
      const first = await startServer({ databaseUrl: database.url })
      const me = await first.join()
      const old = await post(first, me.key, { content: 'before the restart' })
      const oldKey = (await first.get<Jwk>('/.well-known/clearing-signing-key')).body
      const [headBefore] = await heads(first)
      await first.close()
      const rotated = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString()
      const second = await startServer({
        databaseUrl: database.url,
        clock: first.clock,
        config: {
          signingKey: rotated,
          signingKeysRetired: [{ kty: 'OKP', crv: 'Ed25519', x: oldKey.x, valid_until: '2026-12-01T00:00:00Z' }],
        },
      })
      try {
        await post(second, me.key, { content: 'after the restart' })
        const served = (await second.get<Jwk>('/.well-known/clearing-signing-key')).body
        assert.notEqual(served.kid, oldKey.kid)
        assert.deepEqual(
          served.previous.map((k) => [k.kid, k.valid_until]),
          [[oldKey.kid, '2026-12-01T00:00:00Z']],
        )
        const [headAfter] = await heads(second)
        assert.equal(headAfter?.last_id, (headBefore?.last_id ?? 0) + 1)
        const receiptsFile = join(mkdtempSync(join(tmpdir(), 'receipts-')), 'receipts.json')
        writeFileSync(receiptsFile, JSON.stringify([(old.body as unknown as { receipt: Receipt }).receipt]))
        const checked = await npmVerify(second.url, '--receipts', receiptsFile)
        assert.equal(checked.code, 0, checked.out)
      } finally {
        await second.close()
      }
    } finally {
      await database.drop()
    }
  })
})

describe('two instances writing at once extend one chain', () => {
  const instances = twoInstances({ contributionIntervalSeconds: 0 })

  test('posts on both, heads read on both at once: one unforked chain', async () => {
    const { a, b } = instances()
    const people = await Promise.all(Array.from({ length: 6 }, (_, i) => (i % 2 ? a : b).join(`w${i}`, 'm')))
    for (let round = 0; round < 3; round++) {
      await Promise.all([
        ...people.map((p, i) => post(i % 2 ? a : b, p.key, { content: `round ${round} by ${i}` })),
        heads(a),
        heads(b),
      ])
    }
    const [fromA, fromB] = await Promise.all([heads(a), heads(b)])
    assert.deepEqual(fromA, fromB)
    assert.equal(fromA[0]?.last_id, 18)
    const checked = await npmVerify(a.url)
    assert.equal(checked.code, 0, checked.out)
  })
})
