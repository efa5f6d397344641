import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { collectFor, type CommitHook } from '../../src/db/commit-hooks.ts'
import { openDatabase, type Database } from '../../src/db/database.ts'
import { migrate } from '../../src/db/migrate.ts'
import { dialect, freshDatabase, type TestDatabase } from '../support/database.ts'

/** A hook that records what each COMMIT it ran before was given, and what it saw in the database. */
function recordingHook() {
  const finished: number[][] = []
  const hook: CommitHook<number[]> = {
    name: 'recording',
    start: () => [],
    finish: async (_tx, collected) => {
      finished.push(collected.flat())
    },
  }
  return { hook, finished }
}

describe('commit hooks (db/commit-hooks.ts)', () => {
  let owned: TestDatabase
  let database: Database
  const { hook, finished } = recordingHook()
  let always = 0
  const alwaysHook: CommitHook<never> = {
    name: 'always',
    start: () => {
      throw new Error('collects nothing')
    },
    finish: async () => {
      always++
    },
    always: true,
  }

  before(async () => {
    owned = await freshDatabase({ file: true })
    database = openDatabase(owned.url, { hooks: [hook, alwaysHook] })
    await migrate(database.db)
  })
  after(async () => {
    await database.close()
    await owned.drop()
  })

  test('a shared COMMIT runs each hook once over the kept writes; a refused write takes its collection with it', async () => {
    finished.length = 0
    const write = (value: number, refuse = false) =>
      database.transaction(async (tx) => {
        const collection = collectFor(tx, hook)
        if (dialect === 'postgres') {
          // A PostgreSQL transaction commits alone: nothing is deferred, the caller writes at once.
          assert.equal(collection, undefined)
        } else {
          assert.ok(collection, 'a group-committed write collects')
          collection.push(value)
        }
        if (refuse) throw new Error('refused')
      })
    const outcomes = await Promise.allSettled([write(1), write(2, true), write(3)])
    assert.deepEqual(
      outcomes.map((o) => o.status),
      ['fulfilled', 'rejected', 'fulfilled'],
    )
    if (dialect === 'postgres') return assert.deepEqual(finished, [])
    assert.deepEqual(finished, [[1, 3]], 'one COMMIT, the refused write left out')
    assert.ok(always >= 1, 'a hook marked always runs before the COMMIT without any collection')
  })

  test('outside a transaction nothing collects', () => {
    assert.equal(collectFor(database.db, hook), undefined)
  })

  test('a hook the database was not opened with collects nothing, even in a group commit', async () => {
    const other = recordingHook().hook
    await database.transaction(async (tx) => {
      assert.equal(collectFor(tx, other), undefined)
    })
  })
})
