/**
 * The optional proof of work on join and keyless drafts (docs/proof-of-work.md): off by default; on,
 * every unusable proof is refused with its code and stores nothing, a solved one is accepted once, and
 * the difficulty follows the last minute's load. The solver is the documented one, written here apart
 * from the server's code.
 */
import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { describe, test } from 'node:test'
import { sql } from 'kysely'
import type { Config } from '../../src/config.ts'
import { PROOF_ACTIONS } from '../../src/schemas/proof.ts'
import { registry } from '../../src/app.ts'
import { type TestServer, twoInstances, useServer } from '../support/harness.ts'
import { codeOf } from '../support/errors.ts'
import { callTool, connectMcp } from '../support/mcp.ts'
import { postDraft } from '../support/operator.ts'
import { storedState } from '../support/snapshot.ts'

interface Challenge {
  required: boolean
  challenge: string
  difficulty: number
  expires_at: string
  for: string
}

const zeroBits = (digest: Buffer) => {
  let bits = 0
  for (const byte of digest) {
    if (byte !== 0) return bits + Math.clz32(byte) - 24
    bits += 8
  }
  return bits
}
const bitsOf = (challenge: string, solution: string) =>
  zeroBits(createHash('sha256').update(`${challenge}:${solution}`).digest())

/** The first counter that reaches the difficulty, or (`short`) the first that falls short of it. */
function solve(c: { challenge: string; difficulty: number }, short = false): string {
  for (let n = 0; ; n++) if (bitsOf(c.challenge, String(n)) >= c.difficulty !== short) return String(n)
}

async function challengeFor(t: TestServer, action: string): Promise<Challenge> {
  const reply = await t.get<Challenge>(`/api/challenge?for=${action}`)
  assert.equal(reply.status, 200, JSON.stringify(reply.body))
  return reply.body
}

async function proofFor(t: TestServer, action: string) {
  const c = await challengeFor(t, action)
  return { challenge: c.challenge, solution: solve(c) }
}

/**
 * Everything stored, spent challenges included (the snapshot leaves abuse buckets aside). The delivery
 * of an accepted draft's alert goes on after its answer, so its progress is masked.
 */
async function everything(t: TestServer): Promise<string> {
  const db = t.server.database.db
  const spent = await sql<{ bucket: string }>`select bucket from abuse_buckets where scope = 'proof'`.execute(db)
  const stored = (await storedState(db)).replace(/"attempts":\d+,"claimed_at":[^,]*,(.*?)"sent_at":[^}]*/g, '$1')
  return `${stored}\n\nspent:${spent.rows.map((r) => r.bucket).sort()}`
}

const joinBody = (proof?: unknown) => ({ name: 'Worker', model: 'pow-model', ...(proof ? { proof } : {}) })

describe('proof of work is off by default', () => {
  const { t } = useServer()

  test('join and a keyless draft need no proof; a proof sent anyway is ignored', async () => {
    assert.equal((await t.act('join', joinBody())).status, 200)
    assert.equal((await t.post('/api/drafts', postDraft())).status, 200)
    const ignored = { challenge: 'v1.join.0.1.AA.BB', solution: '1' }
    assert.equal((await t.act('join', joinBody(ignored))).status, 200)
  })

  test('the challenge says no proof is required, and the descriptor says it is off', async () => {
    const c = await challengeFor(t, 'join')
    assert.equal(c.required, false)
    assert.equal(c.difficulty, 0)
    const pow = (await t.view<{ protocol: { proof_of_work: Record<string, unknown> } }>(undefined)).body.protocol
      .proof_of_work
    assert.equal(pow.enabled, false)
    assert.equal(pow.current_difficulty, undefined)
  })
})

describe('proof of work switched on', () => {
  const config: Partial<Config> = { powDifficulty: 3, powMaxDifficulty: 6, powChallengeSeconds: 120 }
  const { t } = useServer({ config })

  /** Join and a post draft with a proof, and what each refuses it with. */
  const attempts = {
    join: (proof?: unknown) => t.act('join', joinBody(proof)),
    submit_draft: (proof?: unknown) => t.post('/api/drafts', postDraft(proof ? { proof } : {})),
  } as const

  async function refused(action: keyof typeof attempts, proof: unknown, status: number, code: string) {
    const before = await everything(t)
    const reply = await attempts[action](proof)
    assert.equal(reply.status, status, JSON.stringify(reply.body))
    assert.equal(codeOf(reply.body), code)
    assert.equal(await everything(t), before, 'nothing stored, nothing spent')
  }

  for (const action of PROOF_ACTIONS) {
    test(`${action}: a missing proof is refused with 400 proof_required, naming the challenge endpoint`, async () => {
      await refused(action, undefined, 400, 'proof_required')
      const reply = await attempts[action]()
      assert.match(JSON.stringify(reply.body), /\/api\/challenge\?for=/)
    })

    test(`${action}: malformed proofs are refused (400 invalid_request or proof_invalid)`, async () => {
      const good = await proofFor(t, action)
      await refused(action, 'not an object', 400, 'invalid_request')
      await refused(action, { challenge: good.challenge }, 400, 'invalid_request')
      await refused(action, { ...good, extra: 1 }, 400, 'invalid_request')
      await refused(action, { ...good, solution: 'has space' }, 400, 'invalid_request')
      await refused(action, { challenge: 'v1.nonsense', solution: '1' }, 400, 'proof_invalid')
    })

    test(`${action}: a challenge issued for the other action is refused with proof_invalid`, async () => {
      const other = PROOF_ACTIONS.find((a) => a !== action) as string
      await refused(action, await proofFor(t, other), 400, 'proof_invalid')
    })

    test(`${action}: an expired challenge is refused with proof_expired`, async () => {
      const proof = await proofFor(t, action)
      t.clock.advance(121)
      await refused(action, proof, 400, 'proof_expired')
    })

    test(`${action}: a solution under the difficulty is refused with proof_invalid`, async () => {
      const c = await challengeFor(t, action)
      await refused(action, { challenge: c.challenge, solution: solve(c, true) }, 400, 'proof_invalid')
    })

    test(`${action}: a forged challenge (difficulty lowered, MAC changed) is refused with proof_invalid`, async () => {
      const c = await challengeFor(t, action)
      const parts = c.challenge.split('.')
      const easier = [...parts.slice(0, 2), '0', ...parts.slice(3)].join('.')
      await refused(action, { challenge: easier, solution: '0' }, 400, 'proof_invalid')
      const mac = parts[5] as string
      const otherMac = [...parts.slice(0, 5), (mac[0] === 'A' ? 'B' : 'A') + mac.slice(1)].join('.')
      await refused(
        action,
        { challenge: otherMac, solution: solve({ ...c, challenge: otherMac }) },
        400,
        'proof_invalid',
      )
    })

    test(`${action}: a solved proof is accepted once; reusing it is refused with proof_reused`, async () => {
      const proof = await proofFor(t, action)
      const first = await attempts[action](proof)
      assert.equal(first.status, 200, JSON.stringify(first.body))
      await refused(action, proof, 400, 'proof_reused')
    })
  }

  test('the challenge carries its action, the difficulty in force and an expiry', async () => {
    const c = await challengeFor(t, 'join')
    assert.deepEqual(
      { required: c.required, for: c.for, difficulty: c.difficulty },
      {
        required: true,
        for: 'join',
        difficulty: 3,
      },
    )
    assert.equal(new Date(c.expires_at).getTime() - t.clock.now().getTime(), 120_000)
    assert.equal((await t.get('/api/challenge?for=contribute')).status, 400)
    assert.equal((await t.get('/api/challenge')).status, 400)
  })

  test('a retried draft needs no new proof: the same client_id and payload answer duplicate, nothing spent', async () => {
    const draft = postDraft()
    const first = await t.post('/api/drafts', { ...draft, proof: await proofFor(t, 'submit_draft') })
    assert.equal(first.status, 200)
    const before = await everything(t)
    for (const retry of [draft, { ...draft, proof: await proofFor(t, 'submit_draft') }]) {
      const again = await t.post<{ duplicate: boolean }>('/api/drafts', retry)
      assert.equal(again.status, 200)
      assert.equal(again.body.duplicate, true)
    }
    assert.equal(await everything(t), before)
  })

  test('the stored draft holds no proof', async () => {
    await t.post('/api/drafts', postDraft({ proof: await proofFor(t, 'submit_draft'), content: 'proofless?' }))
    const { rows } = await sql<{ payload: string }>`select payload from drafts`.execute(t.server.database.db)
    assert.ok(rows.length > 0)
    for (const row of rows) assert.equal(JSON.parse(row.payload).proof, undefined)
  })

  test('the descriptor documents the algorithm, endpoint, field and the difficulty in force', async () => {
    const reply = await t.view<{ protocol: { proof_of_work: Record<string, unknown> } }>(undefined)
    const pow = reply.body.protocol.proof_of_work
    assert.equal(pow.enabled, true)
    assert.equal(pow.algorithm, 'sha256-leading-zero-bits')
    assert.equal(pow.field, 'proof')
    assert.equal(pow.challenge, `${t.url}/api/challenge?for={action}`)
    assert.equal(pow.mcp_tool, 'proof_challenge')
    assert.deepEqual(pow.actions, [...PROOF_ACTIONS])
    assert.deepEqual(pow.current_difficulty, { join: 3, submit_draft: 3 })
    assert.match(String(pow.solve), /SHA-256/)
    const summary = await t.get<{ parts: Record<string, unknown> }>('/api/clearing?detail=summary')
    assert.ok('proof_of_work' in summary.body.parts)
  })

  test('the actions that take a proof are exactly those whose input has a proof field', () => {
    const withProof = registry.all
      .filter(({ def }) => JSON.stringify(def.input).includes('"proof"'))
      .map(({ def }) => def.name)
    assert.deepEqual(withProof.sort(), [...PROOF_ACTIONS].sort())
    for (const name of PROOF_ACTIONS) {
      const errors = registry.get(name)?.errors ?? []
      for (const code of ['proof_required', 'proof_invalid', 'proof_expired', 'proof_reused']) {
        assert.ok(errors.includes(code as never), `${name} publishes ${code}`)
      }
    }
  })

  test('the Node solver of docs/proof-of-work.md solves a challenge of this server', async () => {
    const page = readFileSync(new URL('../../docs/proof-of-work.md', import.meta.url), 'utf8')
    const code = /```js\n([\s\S]*?)```/.exec(page)?.[1]
    assert.ok(code, 'the page has a Node solver')
    const module = `data:text/javascript;base64,${Buffer.from(code).toString('base64')}`
    const { solve: documented } = (await import(module)) as { solve: (c: string, d: number) => string }
    const c = await challengeFor(t, 'join')
    const joined = await t.act(
      'join',
      joinBody({ challenge: c.challenge, solution: documented(c.challenge, c.difficulty) }),
    )
    assert.equal(joined.status, 200, JSON.stringify(joined.body))
  })

  test('over MCP: proof_challenge in the default toolset, then join with the solved proof', async () => {
    const mcp = await connectMcp(t.url, { toolsets: '' })
    try {
      const tools = (await mcp.client.listTools()).tools.map((tool) => tool.name)
      assert.ok(tools.includes('proof_challenge') && tools.includes('join'))
      const c = await callTool<Challenge>(mcp, 'proof_challenge', { for: 'join' })
      assert.equal(c.isError, false)
      const missing = await callTool(mcp, 'join', joinBody())
      assert.equal(missing.isError, true)
      assert.equal(codeOf(missing.body), 'proof_required')
      const proof = { challenge: c.body.challenge, solution: solve(c.body) }
      const joined = await callTool<{ id: string }>(mcp, 'join', joinBody(proof))
      assert.equal(joined.isError, false, joined.text)
      const again = await callTool(mcp, 'join', joinBody(proof))
      assert.equal(codeOf(again.body), 'proof_reused')
    } finally {
      await mcp.close()
    }
  })
})

describe('the difficulty follows the load, and a refused write spends nothing', () => {
  // Every request here comes from one address: its bucket admits 10 joins a minute.
  const config: Partial<Config> = { powDifficulty: 2, powMaxDifficulty: 5, registrationRatePerMinute: 10 }
  const { t } = useServer({ config })

  test('one bit more at half the per-minute limit and per further tenth, up to the maximum, and back', async () => {
    const early = await challengeFor(t, 'join')
    const seen: number[] = []
    for (let joined = 0; joined < 8; joined++) {
      seen.push((await challengeFor(t, 'join')).difficulty)
      assert.equal((await t.act('join', joinBody(await proofFor(t, 'join')))).status, 200)
    }
    assert.deepEqual(seen, [2, 2, 2, 2, 2, 3, 4, 5])
    assert.equal((await challengeFor(t, 'join')).difficulty, 5, 'bounded by POW_MAX_DIFFICULTY')
    assert.equal((await challengeFor(t, 'submit_draft')).difficulty, 2, 'drafts follow their own load')
    // A challenge keeps the difficulty it was issued with.
    assert.equal(early.difficulty, 2)
    assert.equal((await t.act('join', joinBody({ challenge: early.challenge, solution: solve(early) }))).status, 200)

    t.clock.advance(61)
    assert.equal((await challengeFor(t, 'join')).difficulty, 2, 'back to the base as the minute passes')
  })

  test('a join refused by the rate limit does not spend its proof: it works after the wait', async () => {
    t.clock.advance(61)
    for (let n = 0; n < 10; n++) assert.equal((await t.act('join', joinBody(await proofFor(t, 'join')))).status, 200)
    const proof = await proofFor(t, 'join')
    const spentBefore = await everything(t)
    const limited = await t.act('join', joinBody(proof))
    assert.equal(limited.status, 429)
    assert.equal(await everything(t), spentBefore)
    t.clock.advance(61)
    assert.equal((await t.act('join', joinBody(proof))).status, 200)
  })
})

describe('two instances on one database', () => {
  const instances = twoInstances({ powDifficulty: 2 })

  test('a challenge of one instance is accepted by the other, and spent for both', async () => {
    const { a, b } = instances()
    const proof = await proofFor(a, 'join')
    assert.equal((await b.act('join', joinBody(proof))).status, 200)
    const again = await a.act('join', joinBody(proof))
    assert.equal(again.status, 400)
    assert.equal(codeOf(again.body), 'proof_reused')
  })
})
