import assert from 'node:assert/strict'
import { after, before, describe, test } from 'node:test'
import { readdirSync, readlinkSync } from 'node:fs'
import SQLite from 'better-sqlite3'
import { sql } from 'kysely'
import { sqlitePath, type Database, type WriteTx } from '../../src/db/database.ts'
import { openStore } from '../../src/store/open.ts'
import { migrate } from '../../src/db/migrate.ts'
import { appendDeltas } from '../../src/store/usage/write.ts'
import { dialect, freshDatabase, type TestDatabase } from '../support/database.ts'

/** Transactions of one turn share a COMMIT (db/sqlite-batches.ts); each must still stand alone. */
describe('SQLite group commit', { skip: dialect === 'postgres' && 'SQLite only' }, () => {
  let file: TestDatabase
  let database: Database
  let observer: SQLite.Database
  before(async () => {
    file = await freshDatabase({ file: true })
    database = openStore(file.url)
    await migrate(database.db)
    observer = new SQLite(sqlitePath(file.url), { readonly: true })
  })
  after(async () => {
    observer?.close()
    await database?.close()
    await file?.drop()
  })

  const flag = (name: string) => ({ name, value: 'v', updated_at: '2026-01-01T00:00:00.000Z' })
  const stored = (prefix: string) =>
    (
      observer.prepare(`select name from service_flags where name like ? order by name`).all(`${prefix}%`) as Array<{
        name: string
      }>
    ).map((row) => row.name)

  test('each caller is answered only once its writes are committed (another connection sees them)', async () => {
    const seen = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        database
          .transaction(async (tx) => {
            await tx
              .insertInto('service_flags')
              .values(flag(`visible-${String(i).padStart(2, '0')}`))
              .execute()
            return i
          })
          .then((i) => stored(`visible-${String(i).padStart(2, '0')}`).length),
      ),
    )
    assert.deepEqual(seen, Array(20).fill(1))
  })

  test('a failing transaction is rolled back alone; the others of its turn commit', async () => {
    const outcomes = await Promise.allSettled(
      Array.from({ length: 9 }, (_, i) =>
        database.transaction(async (tx) => {
          await tx
            .insertInto('service_flags')
            .values(flag(`alone-${i}`))
            .execute()
          if (i % 3 === 1) throw new Error(`refused ${i}`)
          return i
        }),
      ),
    )
    assert.deepEqual(
      outcomes.map((o) => o.status),
      outcomes.map((_, i) => (i % 3 === 1 ? 'rejected' : 'fulfilled')),
    )
    assert.deepEqual(stored('alone-'), ['alone-0', 'alone-2', 'alone-3', 'alone-5', 'alone-6', 'alone-8'])
  })

  test("a batch's usage deltas are stored summed, once per counter; a rolled-back write's are not", async () => {
    const deltaRows = () =>
      observer.prepare(`select name, delta from usage_deltas where name like 'batch.%' order by name, delta`).all()
    const outcomes = await Promise.allSettled(
      Array.from({ length: 6 }, (_, i) =>
        database.transaction(async (tx) => {
          await appendDeltas(
            tx,
            new Map([
              ['batch.every', 1],
              [`batch.parity-${i % 2}`, 10],
              ['batch.cancelled', i % 2 === 0 ? 1 : -1],
            ]),
          )
          if (i === 4) throw new Error('refused')
        }),
      ),
    )
    assert.deepEqual(
      outcomes.map((o) => o.status),
      ['fulfilled', 'fulfilled', 'fulfilled', 'fulfilled', 'rejected', 'fulfilled'],
    )
    // One row per counter: write 4 rolled back, the other five kept (batch.cancelled: 2 even, 3 odd = -1).
    assert.deepEqual(deltaRows(), [
      { name: 'batch.cancelled', delta: -1 },
      { name: 'batch.every', delta: 5 },
      { name: 'batch.parity-0', delta: 20 },
      { name: 'batch.parity-1', delta: 30 },
    ])
    // Outside a batch (no transaction) deltas are written as given, at once.
    // As on PostgreSQL, whose transactions have no commit scope: the brand is a type only.
    await appendDeltas(database.db as WriteTx, new Map([['batch.every', 2]]))
    assert.equal(deltaRows().length, 5)
  })

  /**
   * Transactions of one turn, each counting its runs and scheduling one after-commit task; `fail` says
   * which throw, and whether they change a row first.
   */
  async function batchOf(prefix: string, fail: (i: number) => 'before writing' | 'after writing' | undefined) {
    const runs = Array<number>(6).fill(0)
    const committed = Array<number>(6).fill(0)
    const outcomes = await Promise.allSettled(
      runs.map((_, i) =>
        database.transaction(async (tx, onCommit) => {
          runs[i] = (runs[i] ?? 0) + 1
          onCommit(() => void (committed[i] = (committed[i] ?? 0) + 1))
          if (fail(i) === 'before writing') throw new Error(`refused ${i}`)
          await tx
            .insertInto('service_flags')
            .values(flag(`${prefix}-${i}`))
            .execute()
          if (fail(i) === 'after writing') throw new Error(`refused ${i}`)
          return runs[i]
        }),
      ),
    )
    await database.settled()
    return { outcomes: outcomes.map((o) => (o.status === 'fulfilled' ? o.value : 'refused')), runs, committed }
  }

  test('a transaction refused before it changes a row leaves the others of its batch to run once', async () => {
    const { outcomes, runs, committed } = await batchOf('early', (i) => (i === 2 ? 'before writing' : undefined))
    assert.deepEqual(outcomes, [1, 1, 'refused', 1, 1, 1])
    assert.deepEqual(runs, [1, 1, 1, 1, 1, 1], 'no transaction ran twice')
    assert.deepEqual(committed, [1, 1, 0, 1, 1, 1])
    assert.deepEqual(stored('early-'), ['early-0', 'early-1', 'early-3', 'early-4', 'early-5'])
  })

  test('a transaction refused after changing rows makes its batch run again, its changes alone undone', async () => {
    const { outcomes, runs, committed } = await batchOf('late', (i) => (i === 2 ? 'after writing' : undefined))
    // The batch ran without savepoints up to the refusal, then whole again with them.
    assert.deepEqual(runs, [2, 2, 2, 1, 1, 1])
    assert.deepEqual(outcomes, [2, 2, 'refused', 1, 1, 1], 'each caller gets the run that committed')
    assert.deepEqual(committed, [1, 1, 0, 1, 1, 1], 'work scheduled by the rolled-back run is dropped')
    assert.deepEqual(stored('late-'), ['late-0', 'late-1', 'late-3', 'late-4', 'late-5'])
  })

  test("a transaction that ends the batch's transaction fails the whole batch, and nothing is stored", async () => {
    const outcomes = await Promise.allSettled(
      ['ended-a', 'ended-b', 'ended-c'].map((name, i) =>
        database.transaction(async (tx) => {
          await tx.insertInto('service_flags').values(flag(name)).execute()
          if (i === 1) {
            // As SQLite does of its own accord on some errors (a full disk): the transaction is gone.
            await sql`rollback`.execute(tx)
            throw new Error('disk full')
          }
        }),
      ),
    )
    assert.deepEqual(
      outcomes.map((o) => o.status),
      ['rejected', 'rejected', 'rejected'],
    )
    assert.deepEqual(stored('ended-'), [])
  })

  test('when the shared COMMIT fails, every transaction of the batch fails and nothing is stored', async () => {
    const outcomes = await Promise.allSettled([
      database.transaction(async (tx) => {
        await tx.insertInto('service_flags').values(flag('commit-a')).execute()
      }),
      database.transaction(async (tx) => {
        // A deferred foreign key is checked at COMMIT: this row makes the shared commit fail.
        await sql`pragma defer_foreign_keys = on`.execute(tx)
        await tx
          .insertInto('participant_keys')
          .values({ key_hash: 'orphan', participant_id: 'nobody', state: 'active', created_at: 'x' })
          .execute()
      }),
      database.transaction(async (tx) => {
        await tx.insertInto('service_flags').values(flag('commit-c')).execute()
      }),
    ])
    assert.deepEqual(
      outcomes.map((o) => o.status),
      ['rejected', 'rejected', 'rejected'],
    )
    assert.deepEqual(stored('commit-'), [])
    // The next turn's transactions commit as usual.
    await database.transaction(async (tx) => {
      await tx.insertInto('service_flags').values(flag('commit-later')).execute()
    })
    assert.deepEqual(stored('commit-'), ['commit-later'])
  })

  test(
    'a write that changes many pages keeps its savepoint in memory: no temporary file is opened',
    {
      skip: process.platform !== 'linux' && 'reads open files from /proc',
    },
    async () => {
      const temporaryFiles = () =>
        readdirSync('/proc/self/fd').filter((fd) => {
          try {
            return readlinkSync(`/proc/self/fd/${fd}`).endsWith('(deleted)')
          } catch {
            return false
          }
        })
      const rows = Array.from({ length: 200 }, (_, i) => ({
        ...flag(`pages-${String(i).padStart(3, '0')}`),
        value: 'x'.repeat(1000),
      }))
      await database.transaction((tx) => tx.insertInto('service_flags').values(rows).execute())
      const before = temporaryFiles()
      // Changing 200 stored rows of 1 KB changes some 50 existing pages, whose prior content the savepoint
      // keeps: far past the 64 KiB SQLite keeps in memory by default.
      const during = await database.transaction(async (tx) => {
        await tx
          .updateTable('service_flags')
          .set({ value: 'y'.repeat(1000) })
          .where('name', 'like', 'pages-%')
          .execute()
        return temporaryFiles()
      })
      assert.deepEqual(during, before)
      assert.equal(stored('pages-').length, 200)
    },
  )
})
