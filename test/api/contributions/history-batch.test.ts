/**
 * History pages asked for in one turn of the event loop (store/pager.ts, batchedKeysetPage): on
 * PostgreSQL one statement reads them all, and every caller gets exactly the page it would have read
 * alone, masking included; on SQLite each page is its own statement.
 */
import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { type Database } from '../../../src/db/database.ts'
import { openStore } from '../../../src/store/open.ts'
import { pageAfter } from '../../../src/store/contributions/read.ts'
import { dialect } from '../../support/database.ts'
import { post, sharedDatabase, startServer, type TestServer } from '../../support/harness.ts'
import { op } from '../../support/operator.ts'

describe('history pages asked for together', () => {
  let t: TestServer
  let database: Database
  let ids: number[]

  before(async () => {
    const shared = await sharedDatabase()
    t = await startServer({ databaseUrl: shared.url })
    database = openStore(shared.url)
    const author = await t.join('Pager', 'page-model')
    ids = []
    for (let i = 0; i < 9; i++) ids.push((await post(t, author.key, { content: `page text ${i}` })).body.id)
    const masked = await op(t, 'quarantine', {
      reason_code: 'other',
      target_type: 'contribution',
      target_id: ids[4],
      reason: 'batch test',
    })
    assert.equal(masked.status, 200)
  })
  after(async () => {
    await database.close()
    await t.close()
  })

  test('each caller gets the page it would read alone, in one statement on PostgreSQL', async () => {
    // Cursors before, inside and past the history, one asked twice, and two page sizes in the turn.
    const asks = [0, ids[1], ids[3], ids[3], ids[7], ids[8], ids[8]! + 100].flatMap((after) => [
      { after: after!, limit: 2 },
      { after: after!, limit: 3 },
    ])
    // Alone: inside a transaction every page is read by its own statement.
    const alone = await database.db
      .transaction()
      .execute(async (tx) => Promise.all(asks.map((ask) => pageAfter(tx, ask))))
    let statements = 0
    const counted = database.db.withPlugin({
      transformQuery: (args) => args.node,
      transformResult: async (args) => {
        statements++
        return args.result
      },
    })
    const together = await Promise.all(asks.map((ask) => pageAfter(counted, ask)))
    assert.deepEqual(together, alone)
    assert.equal(statements, dialect === 'postgres' ? 2 : asks.length, 'one statement per page size on PostgreSQL')

    const first = together[0]!
    assert.deepEqual(
      first.items.map((c) => c.id),
      ids.slice(0, 2),
    )
    assert.equal(first.hasMore, true)
    const masked = together.flatMap((page) => page.items).find((c) => c.id === ids[4])
    assert.equal(masked?.content, null, 'a quarantined post is masked in a batched page too')
    assert.deepEqual(together.at(-1), { items: [], hasMore: false, next: ids[8]! + 100 })
  })

  // A page left unanswered would hang: the timeout turns that into a failure.
  test(
    'a failed read fails every page asked for with it, and leaves nothing behind for the next turn',
    { timeout: 10_000 },
    async () => {
      const failing = database.db.withPlugin({
        transformQuery: (args) => args.node,
        transformResult: async () => {
          throw new Error('the statement failed')
        },
      })
      const asked = await Promise.allSettled(
        [0, ids[2]!, ids[5]!].map((after) => pageAfter(failing, { after, limit: 2 })),
      )
      for (const outcome of asked) {
        assert.equal(outcome.status, 'rejected')
        assert.equal((outcome as PromiseRejectedResult).reason.message, 'the statement failed')
      }
      const after = await pageAfter(database.db, { after: 0, limit: 2 })
      assert.deepEqual(
        after.items.map((c) => c.id),
        ids.slice(0, 2),
      )
    },
  )

  test('a page asked for alone in its turn is read as before', async () => {
    const page = await pageAfter(database.db, { after: ids[6]!, limit: 5 })
    assert.deepEqual(
      page.items.map((c) => c.id),
      ids.slice(7),
    )
    assert.equal(page.hasMore, false)
    assert.equal(page.next, ids[8])
  })
})
