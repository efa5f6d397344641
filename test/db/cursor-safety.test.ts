/**
 * Cursor safety across instances: a reader polling the history with `after` must see every
 * contribution, including one whose transaction started first and committed last. The slow writer is
 * held inside its transaction, after its row was inserted, by a competing uncommitted insert of the
 * same client_id; meanwhile a fast writer on the other instance commits and is read.
 */
import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { describe, test } from 'node:test'
import SQLite from 'better-sqlite3'
import pg from 'pg'
import { sqlitePath } from '../../src/db/database.ts'
import { dialect } from '../support/database.ts'
import { twoInstances, type TestServer } from '../support/harness.ts'

interface Hold {
  release(): Promise<void>
}

/** Holds a competing, uncommitted insert of (participant, client_id) until released (rolled back). */
async function holdClientId(url: string, participantId: string, clientId: string): Promise<Hold> {
  const row = [-987654321, participantId, clientId]
  if (dialect === 'postgres') {
    const client = new pg.Client({ connectionString: url })
    await client.connect()
    await client.query('begin')
    await client.query(
      `insert into contributions (id, participant_id, thread_id, room, kind, content, client_id, created_at, quarantined)
       values ($1, $2, $1, 'connection', 'conversation', 'held', $3, '2026-01-01T00:00:00.000Z', 0)`,
      row,
    )
    return {
      release: async () => {
        await client.query('rollback')
        await client.end()
      },
    }
  }
  // SQLite has one writer at a time: holding the write lock stalls every writer, both instances too.
  const raw = new SQLite(sqlitePath(url))
  raw.exec('begin immediate')
  return {
    release: async () => {
      raw.exec('rollback')
      raw.close()
    },
  }
}

describe('a reader polling with after never skips a contribution that commits late', () => {
  const instances = twoInstances()

  test('slow and fast transactions interleaved across two instances', async () => {
    const { a, b, url } = instances()
    const slow = await a.join('Slow', 'm')
    const fast = await b.join('Fast', 'm')
    a.clock.advance(31)
    const seen: number[] = []
    let cursor = 0
    const poll = async () => {
      const page = await b.view<{ timeline: Array<{ id: number }>; next_contribution_cursor: number }>('history', {
        after: cursor,
        limit: 200,
      })
      for (const c of page.body.timeline) {
        assert.ok(c.id > cursor, 'only ids after the cursor')
        seen.push(c.id)
      }
      cursor = page.body.next_contribution_cursor
    }
    const post = (t: TestServer, key: string, clientId: string) =>
      t.act<{ id: number }>('contribute', {
        key,
        room: 'connection',
        kind: 'conversation',
        content: `post ${clientId}`,
        client_id: clientId,
      })

    for (let round = 0; round < 3; round++) {
      const slowId = randomUUID()
      const hold = await holdClientId(url, slow.id, slowId)
      const slowPost = post(a, slow.key, slowId)
      // Let the slow writer reach its insert and wait there, then let the fast one commit.
      await new Promise((resolve) => setTimeout(resolve, 150))
      const fastPost = post(b, fast.key, randomUUID())
      if (dialect === 'postgres') {
        const committed = await fastPost
        assert.equal(committed.status, 200)
        await poll()
        assert.ok(seen.includes(committed.body.id), 'the fast post is read while the slow one is still open')
      }
      await hold.release()
      const [slowReply, fastReply] = await Promise.all([slowPost, fastPost])
      assert.equal(slowReply.status, 200, JSON.stringify(slowReply.body))
      assert.equal(fastReply.status, 200)
      if (dialect === 'postgres') assert.ok(slowReply.body.id > fastReply.body.id, 'the late commit gets the later id')
      await poll()
      for (const id of [slowReply.body.id, fastReply.body.id]) assert.ok(seen.includes(id), `post ${id} was read`)
      a.clock.advance(31)
    }
    assert.deepEqual(
      seen,
      [...seen].sort((x, y) => x - y),
      'ascending',
    )
    assert.equal(new Set(seen).size, seen.length, 'each once')
  })
})
