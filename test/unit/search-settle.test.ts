import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { sql } from 'kysely'
import { settleSearchIndexes } from '../../src/store/search/read.ts'
import { indexStagedRows } from '../../src/store/search/staging.ts'
import { dialect, insertTestParticipant, migratedStore, testContributionRow } from '../support/database.ts'

const AT = '2026-01-01T00:00:00.000Z'
const AUTHOR = '00000000-0000-4000-8000-0000000000aa'

const row = (id: number, content: string) => testContributionRow(id, AUTHOR, content, AT)

describe(
  'settling the search indexes after a bulk load (SQLite FTS5)',
  { skip: dialect === 'postgres' && 'FTS5 only; PostgreSQL is vacuumed' },
  () => {
    const store = migratedStore()
    const segments = async () => {
      const { rows } = await sql<{ n: number }>`select count(distinct segid) as n from contributions_fts_idx`.execute(
        store().db,
      )
      return Number(rows[0]?.n)
    }
    const matches = async (word: string) => {
      const { rows } = await sql<{
        id: number
      }>`select rowid as id from contributions_fts where contributions_fts match ${word} order by rowid`.execute(
        store().db,
      )
      return rows.map((row) => Number(row.id))
    }

    test('merges the segments that loads in separate transactions left, and finds the same rows', async () => {
      const { db } = store()
      await insertTestParticipant(db, AUTHOR, 'Loader', AT)
      for (let batch = 0; batch < 6; batch++) {
        await db.transaction().execute(async (tx) => {
          for (let i = 1; i <= 20; i++) {
            const id = batch * 20 + i
            await tx
              .insertInto('contributions')
              .values(row(id, `loaded words ${id % 3 === 0 ? 'fizz' : 'plain'}`))
              .execute()
          }
          // As a group commit does before its COMMIT: this load's rows become one segment.
          await indexStagedRows(tx)
        })
      }
      const before = { segments: await segments(), fizz: await matches('fizz'), loaded: await matches('loaded') }
      assert.ok(before.segments > 1, `each load's transaction left a segment (${before.segments})`)
      await settleSearchIndexes(db)
      assert.equal(await segments(), 1)
      assert.deepEqual(await matches('fizz'), before.fizz)
      assert.deepEqual(await matches('loaded'), before.loaded)
      assert.equal(before.loaded.length, 120)
    })

    test('rows loaded outside a group commit are found once settled', async () => {
      const { db } = store()
      await db.insertInto('contributions').values(row(500, 'bulk loaded buzz')).execute()
      assert.deepEqual(await matches('buzz'), [])
      await settleSearchIndexes(db)
      assert.deepEqual(await matches('buzz'), [500])
    })
  },
)
