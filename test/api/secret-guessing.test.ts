/**
 * Every secret an action takes (participation key, operator key, review key, receipt key, wallet
 * session token) is throttled by the same abuse buckets: wrong ones count, past the limit every
 * attempt with a secret from that client answers 429 with Retry-After, the right secret too, while
 * other clients are unaffected. Enumerated from the registry: an action that takes a secret is covered
 * the day it lands. Refused key rotations count the same way and never say why.
 */
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { afterEach, describe, test } from 'node:test'
import { KEY_FAILURE_LIMIT } from '../../src/core/key-guard.ts'
import type { RegisteredAction } from '../../src/core/registry.ts'
import { example, registry } from '../support/examples.ts'
import { useFixture } from '../support/servers.ts'
import { freshKey, type Reply, type TestServer, useServer } from '../support/harness.ts'
import { codeOf, type ErrorReply } from '../support/errors.ts'
import { op } from '../support/operator.ts'

/** A wrong value of each secret field, in the shape of a real one, and the code a wrong one answers. */
const WRONG: Record<string, { value: () => string; code: string }> = {
  key: { value: freshKey, code: 'invalid_key' },
  operator_key: { value: () => randomBytes(32).toString('base64url'), code: 'operator_only' },
  review_key: { value: () => randomBytes(32).toString('base64url'), code: 'operator_only' },
  receipt_key: { value: () => 'rcpt_' + randomBytes(32).toString('base64url'), code: 'invalid_receipt' },
  session_token: { value: () => 'clrs_' + randomBytes(32).toString('base64url'), code: 'session_invalid' },
}

let nextAddress = 0
/** A client address of its own (the server trusts X-Forwarded-For here), so each case has its own bucket. */
const newAddress = () => `10.77.${Math.floor(nextAddress / 250)}.${(nextAddress++ % 250) + 1}`

async function from<T = ErrorReply>(t: TestServer, address: string, path: string, body: unknown): Promise<Reply<T>> {
  const res = await fetch(t.url + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
    body: JSON.stringify(body),
  })
  const text = await res.text()
  return { status: res.status, body: (text ? JSON.parse(text) : null) as T, headers: res.headers }
}

function assertBlocked(reply: Reply, what: string): void {
  assert.equal(reply.status, 429, `${what}: ${JSON.stringify(reply.body)}`)
  assert.equal(codeOf(reply.body), 'rate_limited', what)
  assert.ok(Number(reply.headers.get('retry-after')) >= 60, `${what}: Retry-After >= 60`)
}

/** The secret fields an action's input takes, read from its schema. */
const secretFields = (entry: RegisteredAction) =>
  Object.keys(WRONG).filter((field) => field in ((entry.def.input as { properties?: object }).properties ?? {}))
const withSecrets = registry.all.filter((entry) => secretFields(entry).length > 0)

describe('wrong secrets of every kind count in one abuse bucket and block it', () => {
  const { t, f } = useFixture({ config: { trustProxy: true } })
  // The example of pause_writes, served from another client, pauses them for the tests after it.
  afterEach(async () => {
    await op(t, 'resume_writes', { reason_code: 'other' })
  })

  test('every kind of secret is covered', () => {
    const fields = new Set(withSecrets.flatMap(secretFields))
    assert.deepEqual([...fields].sort(), Object.keys(WRONG).sort())
    for (const entry of withSecrets) assert.ok(entry.errors.includes('rate_limited'), `${entry.def.name} publishes it`)
  })

  for (const entry of withSecrets) {
    for (const field of secretFields(entry)) {
      test(`${entry.def.name}: ${KEY_FAILURE_LIMIT} wrong ${field}s, then 429 for any ${field}, the right one too`, async () => {
        const body = (input: Record<string, unknown>) => ({ action: entry.def.name, ...input })
        // A caller of its own: some examples change their caller (rotate_key, link_wallet).
        const right = example(entry.def.name, { ...f, caller: await t.join('Guessed', 'm') })
        const guesser = newAddress()
        const wrong = WRONG[field] as (typeof WRONG)[string]
        for (let i = 0; i < KEY_FAILURE_LIMIT; i++) {
          const reply = await from(t, guesser, entry.def.http.path, body({ ...right, [field]: wrong.value() }))
          assert.equal(codeOf(reply.body), wrong.code, `guess ${i}: ${JSON.stringify(reply.body)}`)
        }
        assertBlocked(
          await from(t, guesser, entry.def.http.path, body({ ...right, [field]: wrong.value() })),
          'a guess',
        )
        assertBlocked(await from(t, guesser, entry.def.http.path, body(right)), 'the right secret, while blocked')
        await acceptedFromElsewhere(t, entry, body(right))
      })
    }
  }

  test('wrong secrets of different kinds add up in one bucket', async () => {
    const guesser = newAddress()
    const kinds = [
      () => from(t, guesser, '/api/operator', { action: 'list_drafts', operator_key: WRONG.operator_key?.value() }),
      () => from(t, guesser, '/api/clearing', { action: 'visit', key: freshKey() }),
      () => from(t, guesser, '/api/clearing', { action: 'report_status', case_id: f.caseId, receipt_key: 'rcpt_x' }),
      () => from(t, guesser, '/api/wallet', { action: 'my_wallet', session_token: 'clrs_x' }),
    ]
    for (let i = 0; i < KEY_FAILURE_LIMIT; i++) {
      const reply = await (kinds[i % kinds.length] as (typeof kinds)[number])()
      assert.equal(reply.status, 403, `guess ${i}: ${JSON.stringify(reply.body)}`)
    }
    assertBlocked(await (kinds[0] as (typeof kinds)[number])(), 'one more guess')
    assertBlocked(await from(t, guesser, '/api/clearing', { action: 'visit', key: f.other.key }), 'a right key')
  })
})

/**
 * The same right input from another client is not refused as a guess: the block is the guesser's alone.
 * (It may be refused for what it does: the examples share one fixture, so a draft may be decided already.)
 */
async function acceptedFromElsewhere(t: TestServer, entry: RegisteredAction, body: Record<string, unknown>) {
  const reply = await from(t, newAddress(), entry.def.http.path, body)
  const refusedAsGuess = reply.status === 429 || Object.values(WRONG).some((w) => w.code === codeOf(reply.body))
  assert.ok(!refusedAsGuess, `from another client: ${reply.status} ${JSON.stringify(reply.body)}`)
}

describe('rotate_key refuses a new key in one answer that counts as a guess', () => {
  const { t } = useServer({ config: { trustProxy: true } })

  test('in use, wrong format and patterned keys get the same code, message and details', async () => {
    const me = await t.join()
    const other = await t.join()
    const refused = [
      other.key,
      me.key,
      // Patterned, though each has many distinct characters.
      'clr_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQ',
      'clr_qwertyuiopasdfghjklzxcvbnmQWERTYUIOPASDFG',
      'clr_abcABC123abcABC123abcABC123abcABC123abcA',
      'clr_' + 'a'.repeat(43),
      freshKey().slice(0, -1),
      freshKey() + 'x',
      'short-key',
    ]
    const answers = new Set<string>()
    for (const newKey of refused) {
      const reply = await from(t, newAddress(), '/api/clearing', { action: 'rotate_key', key: me.key, new_key: newKey })
      assert.equal(reply.status, 400, newKey.slice(0, 12))
      answers.add(JSON.stringify(reply.body))
    }
    assert.deepEqual(
      [...answers].map((a) => JSON.parse(a) as ErrorReply),
      [
        {
          error: {
            code: 'key_not_acceptable',
            message:
              'The proposed key is not acceptable: generate it in the format join issues, clr_ + 43 base62 characters from a ' +
              'CSPRNG + the 6 base62 characters of their CRC32 (see the new_key field and docs/interface.md).',
            details: [{ path: '/new_key', message: 'not acceptable as a key' }],
          },
        },
      ],
    )
    const visit = await from(t, newAddress(), '/api/clearing', { action: 'visit', key: other.key })
    assert.equal(visit.status, 200, 'the other participant keeps its key')
  })

  test(`refused rotations count as wrong keys: past ${KEY_FAILURE_LIMIT}, even a good rotation answers 429`, async () => {
    const me = await t.join()
    const victim = await t.join()
    const prober = newAddress()
    for (let i = 0; i < KEY_FAILURE_LIMIT; i++) {
      const proposed = i % 2 ? victim.key : 'clr_' + 'ab'.repeat(21) + String.fromCharCode(65 + (i % 26))
      const reply = await from(t, prober, '/api/clearing', { action: 'rotate_key', key: me.key, new_key: proposed })
      assert.equal(codeOf(reply.body), 'key_not_acceptable', `probe ${i}`)
    }
    const probe = { action: 'rotate_key', key: me.key, new_key: victim.key }
    assertBlocked(await from(t, prober, '/api/clearing', probe), 'one more probe')
    const body = { action: 'rotate_key', key: me.key, new_key: freshKey() }
    assertBlocked(await from(t, prober, '/api/clearing', body), 'a good rotation while blocked')
    assert.equal((await from(t, newAddress(), '/api/clearing', body)).status, 200, 'from another client')
  })
})
