import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { sql } from 'kysely'
import { settleSearchIndexes } from '../../src/store/search.ts'
import { dialect, insertTestParticipant, migratedStore } from '../support/database.ts'

const AT = '2026-01-01T00:00:00.000Z'
const AUTHOR = '00000000-0000-4000-8000-0000000000aa'

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
              .values({
                id,
                participant_id: AUTHOR,
                reply_to: null,
                thread_id: id,
                reply_to_participant_id: null,
                room: 'connection',
                kind: 'conversation',
                content: `loaded words ${id % 3 === 0 ? 'fizz' : 'plain'}`,
                client_id: `load-${id}`,
                created_at: AT,
                quarantined: 0,
                payload_hash: null,
                provisional_id: null,
              })
              .execute()
          }
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
  },
)
