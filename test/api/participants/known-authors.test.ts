import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { dialect } from '../../support/database.ts'
import {
  freshKey,
  post,
  type Reply,
  startServer,
  type TestServer,
  twoInstances,
  useServer,
} from '../../support/harness.ts'
import { op } from '../../support/operator.ts'
import type { ErrorReply } from '../../support/errors.ts'

/**
 * A writer remembered between requests (core/known-authors.ts): on PostgreSQL a participant's write
 * whose key this instance authenticated before is not given a read of its author, but a check of it
 * under lock that goes ahead of the write's first statement. Whatever changed in between, the answer is the one a
 * fresh read gives, nothing is written for a refused request, and the usage the post moved stays exact.
 * On SQLite nothing is remembered and the same answers hold.
 */
const remembers = dialect === 'postgres'

/** Counts the requests served from memory (a recall that found the author). */
function countRecalls(t: TestServer): { readonly hits: number } {
  const known = t.server.runtime.knownAuthors
  const recall = known.recall.bind(known)
  const counter = { hits: 0 }
  known.recall = (keyHash) => {
    const found = recall(keyHash)
    if (found) counter.hits++
    return found
  }
  return counter
}

async function stored(t: TestServer, participantId: string) {
  const { db } = t.server.runtime.database
  const activity = await db
    .selectFrom('usage_participants')
    .select(['contributions', 'last_contribution_at'])
    .where('participant_id', '=', participantId)
    .executeTakeFirstOrThrow()
  const { count } = await db
    .selectFrom('contributions')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('participant_id', '=', participantId)
    .executeTakeFirstOrThrow()
  return { contributions: Number(activity.contributions), rows: Number(count) }
}

const refusal = (reply: Reply<unknown>) => [reply.status, (reply.body as ErrorReply).error?.code]

const remembered = (t: TestServer, key: string) =>
  t.server.runtime.knownAuthors.recall(t.server.runtime.services.secrets.digest(key))

test('every participant write may be given a remembered author, not only a post', async (t) => {
  const server = await startServer()
  t.after(() => server.close())
  const me = await server.join()
  const first = await post(server, me.key)
  assert.equal(first.status, 200)
  const recalls = countRecalls(server)
  const note = await server.act<{ id: number; version: number }>('save_shared_memory', {
    key: me.key,
    expected_version: 0,
    title: 'Remembered',
    kind: 'observation',
    content: 'written for an author this instance remembers',
    source_ids: [(first.body as { id: number }).id],
    reason: 'test',
    client_id: 'remembered-note',
  })
  assert.equal(note.status, 200, JSON.stringify(note.body))
  assert.ok(note.body.id > 0 && note.body.version === 1)
  assert.equal(recalls.hits, remembers ? 1 : 0)
})

describe('a post for a remembered author answers as a fresh read would', () => {
  const { t } = useServer()

  test('posts after the first are served from memory on PostgreSQL, and the activity they move stays exact', async () => {
    const me = await t.join()
    const recalls = countRecalls(t)
    for (let i = 0; i < 4; i++) assert.equal((await post(t, me.key)).status, 200)
    assert.equal(recalls.hits, remembers ? 3 : 0)
    assert.deepEqual(await stored(t, me.id), { contributions: 4, rows: 4 })
    assert.equal(remembered(t, me.key)?.activity.contributions, remembers ? 4 : undefined)
  })

  /** What changes between a remembered post and the next, and what the next one must answer. */
  const changes: Array<{
    name: string
    change: (me: { id: string; key: string }) => Promise<unknown>
    status: number
    code: string
    /** Changes every participant at once: made once. */
    global?: true
    undo?: () => Promise<unknown>
  }> = [
    { name: 'revoke_key', change: (me) => t.act('revoke_key', { key: me.key }), status: 403, code: 'key_revoked' },
    {
      name: 'rotate_key',
      change: (me) => t.act('rotate_key', { key: me.key, new_key: freshKey() }),
      status: 403,
      code: 'invalid_key',
    },
    {
      name: 'suspend_participant',
      change: (me) => op(t, 'suspend_participant', { reason_code: 'other', participant_id: me.id, reason: 'test' }),
      status: 403,
      code: 'participant_suspended',
    },
    { name: 'pause', change: (me) => t.act('pause', { key: me.key }), status: 403, code: 'participant_paused' },
    {
      name: 'pause_writes',
      change: () => op(t, 'pause_writes', { reason_code: 'other', reason: 'test' }),
      status: 503,
      code: 'writes_paused',
      global: true,
      undo: () => op(t, 'resume_writes', { reason_code: 'other' }),
    },
  ]
  for (const { name, change, status, code, global, undo } of changes) {
    test(`after ${name}: ${code}, nothing written, the author forgotten`, async () => {
      // Two remembered participants: one posts anew, one retries its last post inside the 30 s.
      const poster = await t.join()
      const retrier = await t.join()
      for (const me of [poster, retrier]) assert.equal((await post(t, me.key)).status, 200)
      const retried = { client_id: `retry-${name}`, content: 'sent twice' }
      assert.equal((await post(t, retrier.key, retried)).status, 200)
      const before = [await stored(t, poster.id), await stored(t, retrier.id)]
      for (const me of global ? [poster] : [poster, retrier]) assert.equal(((await change(me)) as Reply).status, 200)
      try {
        // Refused before its write (the spacing), then decided again on a read, as a retry's answer needs.
        const retry = { key: retrier.key, room: 'connection', kind: 'conversation', ...retried }
        assert.deepEqual(refusal(await t.act('contribute', retry)), [status, code])
        // Sent from memory: the post's own statement finds the change and writes nothing.
        assert.deepEqual(refusal(await post(t, poster.key)), [status, code])
        assert.deepEqual([await stored(t, poster.id), await stored(t, retrier.id)], before)
        for (const me of [poster, retrier]) assert.equal(remembered(t, me.key), undefined)
      } finally {
        await undo?.()
      }
    })
  }

  test('after set_provenance the post counts under the new provenance', async () => {
    const me = await t.join()
    assert.equal((await post(t, me.key)).status, 200)
    assert.equal((await op(t, 'set_provenance', { participant_id: me.id, provenance: 'hosted' })).status, 200)
    assert.equal((await post(t, me.key)).status, 200)
    if (remembers) assert.equal(remembered(t, me.key)?.provenance, 'hosted')
    assert.deepEqual(await stored(t, me.id), { contributions: 2, rows: 2 })
  })

  test('inside 30 s of the last post a retry still answers duplicate and a new post is refused', async () => {
    const me = await t.join()
    const fields = { key: me.key, room: 'connection', kind: 'conversation', content: 'soon' }
    const first = await post(t, me.key, { ...fields, client_id: 'spaced-1' })
    const again = await t.act('contribute', { ...fields, client_id: 'spaced-1' })
    assert.deepEqual(again.body, { ...first.body, duplicate: true })
    assert.deepEqual(refusal(await t.act('contribute', { ...fields, client_id: 'spaced-2' })), [429, 'rate_limited'])
    assert.deepEqual(await stored(t, me.id), { contributions: 1, rows: 1 })
  })
})

describe('a remembered author across instances and concurrent posts', () => {
  const instances = twoInstances({ contributionIntervalSeconds: 0 })

  test('a post through the other instance in between: the next one reads again and counts it', async () => {
    const { a, b } = instances()
    const me = await a.join()
    const recalls = countRecalls(a)
    assert.equal((await post(a, me.key)).status, 200)
    assert.equal((await post(b, me.key)).status, 200)
    assert.equal((await post(a, me.key)).status, 200)
    assert.equal((await post(a, me.key)).status, 200)
    // The third post found its memory stale and read again; the fourth was served from memory.
    assert.equal(recalls.hits, remembers ? 2 : 0)
    assert.deepEqual(await stored(a, me.id), { contributions: 4, rows: 4 })
    if (remembers) assert.equal(remembered(a, me.key)?.activity.contributions, 4)
  })

  test('concurrent posts of one remembered author all land, each counted once', async () => {
    const { a, b } = instances()
    const me = await a.join()
    assert.equal((await post(a, me.key)).status, 200)
    const replies = await Promise.all(Array.from({ length: 8 }, (_, i) => post(i % 2 ? a : b, me.key)))
    assert.deepEqual(
      replies.map((r) => r.status),
      Array(8).fill(200),
    )
    assert.equal(new Set(replies.map((r) => r.body.id)).size, 8)
    assert.deepEqual(await stored(a, me.id), { contributions: 9, rows: 9 })
  })
})
