import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { sql } from 'kysely'
import { Migrator } from 'kysely/migration'
import { type Db, type Tx } from '../../src/db/database.ts'
import { openStore } from '../../src/store/open.ts'
import { migrate } from '../../src/db/migrate.ts'
import { MIGRATIONS } from '../../src/db/migrations/index.ts'
import { dialect, insertTestParticipant, migratedStore, testContributionRow } from '../support/database.ts'

const AT = '2026-01-01T00:00:00.000Z'
const AUTHOR = '00000000-0000-4000-8000-0000000000ab'

const matchesIn = async (db: Db, word: string) => {
  const { rows } = await sql<{ id: number }>`select rowid as id from contributions_fts
    where contributions_fts match ${word} order by rowid`.execute(db)
  return rows.map((row) => Number(row.id))
}

const stagedIn = async (db: Db) => {
  const { rows } = await sql<{ n: number }>`select count(*) as n from search_staged`.execute(db)
  return Number(rows[0]?.n)
}

const segmentsIn = async (db: Db) => {
  const { rows } = await sql<{ n: number }>`select count(distinct segid) as n from contributions_fts_idx`.execute(db)
  return Number(rows[0]?.n)
}

/**
 * The index holds exactly the words of the rows not quarantined, at their places, and counts them:
 * compared with an index built afresh from those rows. (FTS5's own integrity-check expects every row of
 * the table indexed, and quarantined rows are not.)
 */
async function intactIn(db: Db): Promise<void> {
  await sql`create virtual table if not exists temp.reference using fts5(content,
    tokenize='unicode61 remove_diacritics 0')`.execute(db)
  await sql`create virtual table if not exists temp.indexed using fts5vocab(main, contributions_fts, instance)`.execute(
    db,
  )
  await sql`create virtual table if not exists temp.expected using fts5vocab(temp, reference, instance)`.execute(db)
  await sql`delete from temp.reference`.execute(db)
  await sql`insert into temp.reference (rowid, content) select rowid, content from contributions
    where quarantined = 0`.execute(db)
  const words = async (table: 'indexed' | 'expected') =>
    (
      await sql<{ term: string; doc: number; offset: number }>`select term, doc, "offset"
        from ${sql.table(`temp.${table}`)} order by term, doc, "offset"`.execute(db)
    ).rows
  const [indexed, expected] = [await words('indexed'), await words('expected')]
  assert.ok(expected.length > 0)
  assert.deepEqual(indexed, expected)
  // The counts ranking relies on (rows, and words per column): record 1 of each index's data.
  const totals = async (data: string) =>
    (await sql<{ block: Uint8Array }>`select block from ${sql.table(data)} where id = 1`.execute(db)).rows
  assert.deepEqual(await totals('main.contributions_fts_data'), await totals('temp.reference_data'))
}

describe(
  'new rows reach the SQLite search index once per group commit (migration 013)',
  { skip: dialect === 'postgres' && 'FTS5 only; PostgreSQL indexes a generated column' },
  () => {
    const store = migratedStore()
    const insert = (tx: Tx, id: number, content: string, quarantined = 0) =>
      tx
        .insertInto('contributions')
        .values({ ...testContributionRow(id, AUTHOR, content, AT), quarantined })
        .execute()
    /** Writes given in one turn of the event loop share one group commit (db/sqlite-batches.ts). */
    const oneBatch = (...writes: Array<(tx: Tx) => Promise<unknown>>) =>
      Promise.allSettled(writes.map((write) => store().transaction((tx) => write(tx))))
    const matches = (word: string) => matchesIn(store().db, word)
    const staged = () => stagedIn(store().db)
    const segments = () => segmentsIn(store().db)
    const intact = () => intactIn(store().db)

    test('a batch of new rows is found once it commits, written as one segment, and leaves nothing staged', async () => {
      await insertTestParticipant(store().db, AUTHOR, 'Stager', AT)
      const before = await segments()
      const outcomes = await oneBatch(...[1, 2, 3, 4, 5, 6].map((id) => (tx: Tx) => insert(tx, id, `alpha ${id}`)))
      assert.deepEqual(
        outcomes.map((o) => o.status),
        ['fulfilled', 'fulfilled', 'fulfilled', 'fulfilled', 'fulfilled', 'fulfilled'],
      )
      assert.deepEqual(await matches('alpha'), [1, 2, 3, 4, 5, 6])
      assert.equal(await segments(), before + 1)
      assert.equal(await staged(), 0)
      await intact()
    })

    test('rows changed or removed in the batch that wrote them are indexed as the batch leaves them', async () => {
      await oneBatch(
        (tx) => insert(tx, 10, 'bravo quarantined later'),
        (tx) => insert(tx, 11, 'charlie deleted later'),
        (tx) => tx.updateTable('contributions').set({ quarantined: 1 }).where('id', '=', 10).execute(),
        (tx) => tx.deleteFrom('contributions').where('id', '=', 11).execute(),
        async (tx) => {
          await insert(tx, 12, 'delta before its edit')
          await tx.updateTable('contributions').set({ content: 'echo after its edit' }).where('id', '=', 12).execute()
        },
        (tx) => insert(tx, 13, 'foxtrot quarantined from the start', 1),
        (tx) => tx.updateTable('contributions').set({ content: 'alpha edited away' }).where('id', '=', 1).execute(),
      )
      assert.deepEqual(await matches('bravo'), [])
      assert.deepEqual(await matches('charlie'), [])
      assert.deepEqual(await matches('delta'), [])
      assert.deepEqual(await matches('echo'), [12])
      assert.deepEqual(await matches('foxtrot'), [])
      assert.deepEqual(await matches('alpha'), [1, 2, 3, 4, 5, 6])
      assert.deepEqual(await matches('away'), [1])
      assert.equal(await staged(), 0)
      await intact()

      await oneBatch((tx) =>
        tx.updateTable('contributions').set({ quarantined: 0 }).where('id', 'in', [10, 13]).execute(),
      )
      assert.deepEqual(await matches('quarantined'), [10, 13])
      await intact()
    })

    test('a write refused after changing rows takes its staged row with it; the others are indexed', async () => {
      const outcomes = await oneBatch(
        (tx) => insert(tx, 20, 'golf kept'),
        async (tx) => {
          await insert(tx, 21, 'golf refused')
          throw new Error('refused after its insert')
        },
        (tx) => insert(tx, 22, 'golf kept too'),
      )
      assert.deepEqual(
        outcomes.map((o) => o.status),
        ['fulfilled', 'rejected', 'fulfilled'],
      )
      assert.deepEqual(await matches('golf'), [20, 22])
      assert.equal(await staged(), 0)
      await intact()
    })

    test("an indexed row's new id is indexed in place of the old", async () => {
      await oneBatch((tx) => tx.updateTable('contributions').set({ id: 23 }).where('id', '=', 22).execute())
      assert.deepEqual(await matches('golf'), [20, 23])
      await intact()
    })

    test('a database indexed before migration 013 keeps its index; what comes after is staged', async () => {
      const database = openStore('sqlite::memory:')
      try {
        const { db } = database
        const before = Object.fromEntries(Object.entries(MIGRATIONS).filter(([name]) => name < '013'))
        const { error } = await new Migrator({ db, provider: { getMigrations: async () => before } }).migrateToLatest()
        assert.equal(error, undefined)
        await insertTestParticipant(db, AUTHOR, 'Earlier', AT)
        for (const id of [1, 2, 3]) {
          await db
            .insertInto('contributions')
            .values(testContributionRow(id, AUTHOR, `hotel ${id}`, AT))
            .execute()
        }
        assert.deepEqual(await matchesIn(db, 'hotel'), [1, 2, 3], "migration 010's triggers index at once")
        await migrate(db)
        assert.deepEqual(await matchesIn(db, 'hotel'), [1, 2, 3])
        await Promise.all([
          database.transaction((tx) =>
            tx.updateTable('contributions').set({ quarantined: 1 }).where('id', '=', 1).execute(),
          ),
          database.transaction((tx) =>
            tx
              .insertInto('contributions')
              .values(testContributionRow(4, AUTHOR, 'hotel 4', AT))
              .execute(),
          ),
        ])
        assert.deepEqual(await matchesIn(db, 'hotel'), [2, 3, 4])
        assert.equal(await stagedIn(db), 0)
        await intactIn(db)
      } finally {
        await database.close()
      }
    })
  },
)
