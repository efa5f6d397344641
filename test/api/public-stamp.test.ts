import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { markPublicChange, publicStamp, sharedStamp } from '../../src/store/public-stamp.ts'
import { migratedStore } from '../support/database.ts'
import { post, startServer } from '../support/harness.ts'

describe('stamp reads shared by the reads of one turn', () => {
  const store = migratedStore()

  test('reads asked for in the same turn share one query; a later read gets a query of its own', async () => {
    let statements = 0
    const counted = store().db.withPlugin({
      transformQuery: (args) => args.node,
      transformResult: async (args) => {
        statements++
        return args.result
      },
    })
    const asked = [sharedStamp(counted), sharedStamp(counted), sharedStamp(counted)]
    const stamps = await Promise.all(asked)
    assert.deepEqual(stamps, Array(3).fill(await publicStamp(store().db)))
    assert.equal(statements, 1, 'one query for the turn')
    assert.equal(await sharedStamp(counted), stamps[0])
    assert.equal(statements, 2, 'the batch is closed once its query started: a later read queries again')
  })

  test('a change committed before a read is asked is always in its stamp', async () => {
    for (let round = 0; round < 20; round++) {
      const seen = await sharedStamp(store().db)
      // A batch opened before the commit, still open when the next read is asked (SQLite commits
      // within the turn): that read joins it, and the batch's query still starts after the commit.
      const opened = sharedStamp(store().db)
      await store().transaction((tx) => markPublicChange(tx))
      const asked = sharedStamp(store().db)
      assert.notEqual(await asked, seen, `round ${round}`)
      assert.equal(await asked, await publicStamp(store().db))
      await opened
    }
  })
})

describe('cached reads see the writes that came before them', () => {
  test('every one of many concurrent reads after a contribution shows it', async () => {
    const t = await startServer()
    try {
      const me = await t.join('Poller', 'm')
      for (let round = 0; round < 5; round++) {
        t.clock.advance(120)
        // Readers in flight while the write commits, and readers sent after it answered.
        const during = Array.from({ length: 10 }, () => t.view('arrival'))
        const written = await post(t, me.key, { content: `round ${round}` })
        const afterwards = await Promise.all(
          Array.from({ length: 20 }, () =>
            t.view<{ timeline: Array<{ id: number }>; recent_conversation_roots: Array<{ id: number }> }>('arrival'),
          ),
        )
        await Promise.all(during)
        for (const read of afterwards) {
          assert.equal(read.status, 200)
          assert.ok(
            read.body.timeline.some((c) => c.id === written.body.id),
            `round ${round}: contribution ${written.body.id} shown`,
          )
          // The roots are a part shared between requests (ctx.shared): renewed with the stamp as well.
          assert.ok(
            read.body.recent_conversation_roots.some((c) => c.id === written.body.id),
            `round ${round}: the new conversation is among the recent roots`,
          )
        }
      }
    } finally {
      await t.close()
    }
  })
})
