import assert from 'node:assert/strict'
import { setTimeout as sleep } from 'node:timers/promises'
import { describe, test } from 'node:test'
import { sql } from 'kysely'
import pg from 'pg'
import { drawnId, Publisher, whenPublic } from '../../src/store/publication.ts'
import { insertContribution } from '../../src/store/contributions/write.ts'
import { insertKey, keyHolderFor } from '../../src/store/participants/write.ts'
import { findByKeyHash } from '../../src/store/participants/write.ts'
import { contributionUsage, emptyActivity, reclaimDeltaSpace, rollupUsage } from '../../src/store/usage/write.ts'
import type { Database, WriteTx } from '../../src/db/database.ts'
import { insertRevision } from '../../src/store/notes/write.ts'
import { sharedFlag, WRITES_PAUSED } from '../../src/store/operator/flags.ts'
import { CheckFailed, ENDS_TRANSACTION, withNamedStatements } from '../../src/db/pg-statements.ts'
import { prepared } from '../../src/db/prepared.ts'
import { registerParticipant } from '../../src/store/participants/registration.ts'
import { allocateId, hasPending, publicIdsOf } from '../../src/store/public-ids.ts'
import { dialect, insertTestParticipant, migratedStore, testParticipantRow } from '../support/database.ts'
import { post, useServer } from '../support/harness.ts'
import { housekeepingPasses } from '../support/housekeeping.ts'
import { op } from '../support/operator.ts'
import { contributionDigest } from '../../src/services/receipts/content-digest.ts'

/**
 * The PostgreSQL write path's round trips (db/pg-statements.ts, store/public-ids.ts): statements
 * named so they are parsed once per connection, and the id publisher on a connection of its own.
 */
describe('PostgreSQL statements and publication', { skip: dialect !== 'postgres' }, () => {
  const store = migratedStore()

  /** The statements this connection has prepared, and one statement run on the same connection. */
  const onOneConnection = (run: (tx: Database['db']) => Promise<unknown>) =>
    store()
      .db.connection()
      .execute(async (db) => {
        await run(db)
        await run(db)
        const { rows } = await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(db)
        return rows.map((row) => row.statement)
      })

  test('a statement with parameters is prepared once per connection and then reused', async () => {
    const prepared = await onOneConnection((db) =>
      db.selectFrom('service_flags').select('value').where('name', '=', 'writes_paused').execute(),
    )
    const named = prepared.filter((statement) => statement.includes('from "service_flags" where "name" = $1'))
    assert.equal(named.length, 1, `one prepared statement for two runs: ${JSON.stringify(prepared)}`)
  })

  test('a statement without parameters is sent unnamed', async () => {
    const prepared = await onOneConnection((db) => sql`select count(*) from participants`.execute(db))
    assert.equal(prepared.filter((statement) => statement.includes('count(*) from participants')).length, 0)
  })

  test('a statement a migration invalidated is retried unnamed, once, and then stays unnamed', async () => {
    await sql`create table plan_probe (id integer primary key)`.execute(store().db)
    await sql`insert into plan_probe values (1)`.execute(store().db)
    const read = (db: Database['db']) => sql`select * from plan_probe where id = ${1}`.execute(db)
    // Every pooled connection prepares it, then another instance's migration changes the result type.
    await Promise.all(Array.from({ length: 10 }, () => store().transaction((tx) => read(tx).then(() => sleep(20)))))
    await sql`alter table plan_probe add column note text`.execute(store().db)
    const rows = await Promise.all(
      Array.from({ length: 10 }, () => store().transaction(async (tx) => (await read(tx)).rows)),
    )
    for (const result of rows) assert.deepEqual(result, [{ id: 1, note: null }])
  })

  test('outside a transaction, a statement a migration invalidated is run again unnamed at once', async () => {
    await sql`create table plan_probe_alone (id integer primary key)`.execute(store().db)
    await sql`insert into plan_probe_alone values (1)`.execute(store().db)
    const read = () => sql`select * from plan_probe_alone where id = ${1}`.execute(store().db)
    // Concurrent reads check out every pooled connection, so each prepares the statement.
    await Promise.all(Array.from({ length: 10 }, () => read()))
    await sql`alter table plan_probe_alone add column note text`.execute(store().db)
    const rows = await Promise.all(Array.from({ length: 10 }, async () => (await read()).rows))
    for (const result of rows) assert.deepEqual(result, [{ id: 1, note: null }])
  })

  /** The state PostgreSQL reports for the backend a transaction runs on, asked from another connection. */
  const backendState = async (pid: number) => {
    const { rows } = await sql<{ state: string }>`select state from pg_stat_activity where pid = ${pid}`.execute(
      store().db,
    )
    return rows[0]?.state
  }
  const backendPid = async (tx: Database['db']) =>
    (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(tx)).rows[0]?.pid as number

  test("a transaction's BEGIN goes out with its first statement, which runs inside it", async () => {
    const seen = await store().transaction(async (tx) => {
      // A bound value makes it a named statement, the path contribute and join take.
      const first = await sql<{ xid: string; pid: number }>`select txid_current()::text as xid,
        pg_backend_pid() as pid, ${1}::int as one`.execute(tx)
      const row = first.rows[0] as { xid: string; pid: number }
      const during = await backendState(row.pid)
      const again = await sql<{ xid: string }>`select txid_current()::text as xid`.execute(tx)
      return { xid: row.xid, again: again.rows[0]?.xid, during }
    })
    // One transaction from the first statement on, open between statements.
    assert.equal(seen.again, seen.xid)
    assert.equal(seen.during, 'idle in transaction')
  })

  test('BEGIN is held until the first statement: a transaction that has sent none leaves its backend idle', async () => {
    // The pid is learnt in an earlier checkout of the same (only idle) connection of a fresh pool.
    const states = await store()
      .db.connection()
      .execute(async (db) => {
        const pid = await backendPid(db)
        return db.transaction().execute(async (tx) => {
          const before = await backendState(pid)
          await sql`select ${1}::int`.execute(tx)
          return { before, after: await backendState(pid) }
        })
      })
    assert.deepEqual(states, { before: 'idle', after: 'idle in transaction' })
  })

  test('a transaction that sends nothing, and one whose first statement fails, leave the connection usable', async () => {
    assert.equal(await store().transaction(async () => 'nothing sent'), 'nothing sent')
    await assert.rejects(
      store().transaction((tx) => sql`select * from no_such_table where id = ${1}`.execute(tx)),
      /no_such_table/,
    )
    // Every pooled connection is back to a clean state: ten concurrent transactions each commit a write.
    await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        store().transaction((tx) =>
          tx
            .insertInto('service_flags')
            .values({ name: `held-begin-${i}`, value: 'v', updated_at: '2026-01-01T00:00:00.000Z' })
            .execute(),
        ),
      ),
    )
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from service_flags
      where name like 'held-begin-%'`.execute(store().db)
    assert.equal(rows[0]?.n, 10)
  })

  test('a query object after a held BEGIN runs inside the transaction too', async () => {
    const pool = new pg.Pool({ connectionString: process.env.TEST_DATABASE_URL, max: 1, pipeline: true })
    const errors: unknown[] = []
    const client = await withNamedStatements(pool, (err) => errors.push(err)).connect()
    try {
      await client.query('begin', [])
      const asObject = client.query as unknown as (c: pg.QueryConfig) => Promise<pg.QueryResult<{ xid: string }>>
      const first = await asObject({ text: 'select txid_current()::text as xid' })
      const second = await client.query('select txid_current()::text as xid', [])
      assert.equal((second.rows[0] as { xid: string }).xid, first.rows[0]?.xid)
      await client.query('rollback', [])
    } finally {
      client.release()
      await pool.end()
    }
    assert.deepEqual(errors, [])
  })

  const AT = '2026-11-24T00:00:00.000Z'
  // A prepared insert whose `value` may be null, to make the statement fail on purpose (NOT NULL).
  const setFlag = prepared((db, v: { name: string; value: string | null }) =>
    db.insertInto('service_flags').values({ name: v.name, value: v.value as string, updated_at: AT }),
  )
  const flagCount = async (prefix: string, db = store().db) =>
    (await sql<{ n: number }>`select count(*)::int as n from service_flags where name like ${prefix + '%'}`.execute(db))
      .rows[0]?.n

  test("a transaction's last write takes its COMMIT along: committed as soon as it has run", async () => {
    const seen = await store().transaction(async (tx) => {
      await setFlag(tx, { name: 'ending-before', value: 'v' })
      const pid = await backendPid(tx)
      await setFlag(tx, { name: 'ending-last', value: 'v' }, { endsTransaction: true })
      // Before the transaction's callback returns: the backend is out of the transaction and the
      // rows are visible to every other connection.
      return { state: await backendState(pid), visible: await flagCount('ending-') }
    })
    assert.deepEqual(seen, { state: 'idle', visible: 2 })
  })

  test('a failing last write rolls its whole transaction back, and every connection stays usable', async () => {
    await assert.rejects(
      store().transaction(async (tx) => {
        await setFlag(tx, { name: 'ended-kept', value: 'v' })
        await setFlag(tx, { name: 'ended-null', value: null }, { endsTransaction: true })
      }),
      /null value/,
    )
    assert.equal(await flagCount('ended-'), 0, 'the earlier write of the transaction is undone too')
    // Every pooled connection is back to a clean state: ten concurrent transactions each end with one.
    await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        store().transaction(async (tx) => {
          await setFlag(tx, { name: `ended-after-${i}`, value: 'v' })
          await setFlag(tx, { name: `ended-last-${i}`, value: 'v' }, { endsTransaction: true })
          // Reads may follow the last write (on its connection, outside the transaction).
          return (await flagCount(`ended-last-${i}`, tx)) === 1
        }),
      ),
    ).then((seen) => assert.deepEqual(seen, Array(10).fill(true)))
    assert.equal(await flagCount('ended-'), 20)
    // Outside a transaction the mark changes nothing: the statement runs as it would.
    await setFlag(store().db, { name: 'ended-alone', value: 'v' }, { endsTransaction: true })
    assert.equal(await flagCount('ended-alone'), 1)
  })

  test('a connection that breaks in a transaction fails that transaction alone, and leaves the pool', async () => {
    // Before the fix, pg's 'error' event on the checked-out client was an uncaught exception: the
    // server process ended whenever PostgreSQL restarted or terminated a backend mid-request.
    const reported: unknown[] = []
    store().reportConnectionError = (err) => reported.push(err)
    for (const ending of [false, true]) {
      await assert.rejects(
        store().transaction(async (tx) => {
          const pid = await backendPid(tx)
          await sql`select pg_terminate_backend(${pid})`.execute(store().priority.db)
          await setFlag(tx, { name: `broken-${ending}`, value: 'v' }, { endsTransaction: ending })
        }),
      )
    }
    assert.equal(await flagCount('broken-'), 0)
    assert.ok(reported.length >= 2, `each broken connection reported: ${reported.length}`)
    // Had a broken connection gone back to the pool, one of these would fail.
    await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        store().transaction((tx) => setFlag(tx, { name: `after-broken-${i}`, value: 'v' }, { endsTransaction: true })),
      ),
    )
    assert.equal(await flagCount('after-broken-'), 10)
  })

  test("every connection, pooled and the publisher's, runs without Memoize (see SESSION_SETTINGS)", async () => {
    const settings = await Promise.all(
      [store().db, store().priority.db].map(async (db) =>
        Promise.all(
          Array.from({ length: 3 }, () =>
            db.transaction().execute(async (tx) => {
              const { rows } = await sql<{ enable_memoize: string }>`show enable_memoize`.execute(tx)
              await sleep(10)
              return rows[0]?.enable_memoize
            }),
          ),
        ),
      ),
    )
    assert.deepEqual(settings.flat(), ['off', 'off', 'off', 'off', 'off', 'off'])
  })

  test("the publisher's connection reports its retries and failures where the database's go", () => {
    const database = store()
    const [onRetry, reportError] = [database.onRetry, database.reportError]
    const seen: unknown[] = []
    database.onRetry = (reason) => seen.push(reason)
    database.reportError = (err) => seen.push(err)
    database.priority.onRetry('40001')
    database.priority.reportError('failed')
    ;[database.onRetry, database.reportError] = [onRetry, reportError]
    assert.notEqual(database.priority, database, 'a connection of its own on PostgreSQL')
    assert.deepEqual(seen, ['40001', 'failed'])
  })

  test('a failed publication fails only the writes waiting on it: the next run publishes', async () => {
    const real = store()
    let runs = 0
    // The first run's connection breaks; every later run works.
    const priority = {
      transaction: async (fn: Parameters<Database['transaction']>[0]) => {
        if (++runs === 1) {
          await sleep(20)
          throw new Error('connection lost')
        }
        return real.priority.transaction(fn)
      },
    }
    const flaky = Object.create(real, { priority: { get: () => priority } }) as Database
    const publisher = new Publisher(flaky)
    const first = publisher.flush()
    const waiting = publisher.flush()
    await assert.rejects(first, /connection lost/)
    assert.ok((await waiting) instanceof Map, 'a write waiting for the next run gets it')
    // Later writes, during a run and after it, are published as before.
    const during = [publisher.flush(), publisher.flush(), publisher.flush()]
    for (const run of await Promise.all(during)) assert.ok(run instanceof Map)
    // The failed run, the run after it, then one for the first of these and one for the two after it.
    assert.equal(runs, 4)
  })

  test('publication never queues behind the writers it unblocks for a pooled connection', async () => {
    const publisher = new Publisher(store())
    let release = () => {}
    const held = new Promise<void>((resolve) => (release = resolve))
    // Every pooled connection is taken by a transaction that waits.
    const holders = Array.from({ length: 10 }, () => store().transaction(() => held))
    await sleep(50)
    const published = await Promise.race([publisher.flush().then(() => 'published'), sleep(2000, 'timed out')])
    release()
    await Promise.all(holders)
    assert.equal(published, 'published')
  })

  const AUTHOR = '00000000-0000-4000-8000-00000000000a'
  /** A root post of AUTHOR's in the connection room, as a writer hands it to the store. */
  const rootPost = (content: string, clientId: string) => ({
    participant_id: AUTHOR,
    reply_to: null,
    room: 'connection',
    kind: 'conversation',
    content,
    client_id: clientId,
    created_at: AT,
    quarantined: 0,
    payload_hash: null,
    signals: null,
    content_digest: contributionDigest(content),
  })
  /** Commits a root post and a note revision, both with provisional ids; returns those ids. */
  const pendingPostAndNote = async (n: number) =>
    store().transaction(async (tx) => {
      const usage = contributionUsage(emptyActivity(AUTHOR), {
        provenance: 'unknown',
        room: 'connection',
        isReply: false,
        dateUtc: AT.slice(0, 10),
        at: AT,
      })
      const post = await insertContribution(tx, rootPost(`pending ${n}`, `post-${n}`), usage)
      assert.ok(typeof post === 'object', 'a new client_id is inserted')
      const note = await allocateId(tx, 'memory_revisions')
      await insertRevision(tx, {
        id: note.id,
        provisional_id: note.provisional,
        memory_id: `10000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
        version: 1,
        participant_id: AUTHOR,
        title: `note ${n}`,
        kind: 'observation',
        content: 'pending',
        source_ids: '[]',
        reason: 'test',
        client_id: `note-${n}`,
        created_at: AT,
        quarantined: 0,
        payload_hash: null,
      })
      return { post: post.id.drawn, note: note.id }
    })
  /** What a write that drew these rows answers once they are public (store/publication.ts). */
  const answerWith = (publisher: Publisher, { post, note }: { post: number; note: number }) =>
    publisher.answer(
      whenPublic([drawnId(post), drawnId(note)], (publicId) => ({
        id: publicId(drawnId(post)),
        note_id: publicId(drawnId(note)),
      })),
    )

  test('one publication gives both tables their public ids, and a root its thread', async () => {
    await insertTestParticipant(store().db, AUTHOR, 'Pending', AT)
    const pending = await pendingPostAndNote(1)
    assert.ok(pending.post < 0 && pending.note < 0, 'provisional until published')
    const published = await new Publisher(store()).flush()
    const post = published.get(pending.post)
    const note = published.get(pending.note)
    assert.ok(post !== undefined && post > 0 && note !== undefined && note > 0, JSON.stringify([...published]))
    const row = await store()
      .db.selectFrom('contributions')
      .select(['id', 'thread_id'])
      .where('id', '=', post)
      .executeTakeFirst()
    assert.deepEqual(row, { id: post, thread_id: post }, "a root's thread follows its new id")
    const revision = await store()
      .db.selectFrom('memory_revisions')
      .select('id')
      .where('id', '=', note)
      .executeTakeFirst()
    assert.deepEqual(revision, { id: note })
  })

  test("a write's ids resolve when another instance's publisher made them public", async () => {
    const pending = await pendingPostAndNote(2)
    const here = new Publisher(store())
    const elsewhere = new Publisher(store())
    const published = await elsewhere.flush()
    const resolved = await answerWith(here, pending)
    assert.deepEqual(resolved, { id: published.get(pending.post), note_id: published.get(pending.note) })
  })

  test('a write whose row an earlier run published finds its id there, without a query of its own', async () => {
    const pending = await pendingPostAndNote(3)
    const real = store()
    let lookups = 0
    // The publisher's look-ups of rows other runs published go through `db`; its runs use `priority`.
    const watched = Object.create(real, {
      db: {
        get: () => {
          lookups++
          return real.db
        },
      },
    }) as Database
    const publisher = new Publisher(watched)
    // The run publishes the rows before their writer asks: the writer then waits for a later run.
    const published = await publisher.flush()
    const resolved = await answerWith(publisher, pending)
    assert.deepEqual(resolved, { id: published.get(pending.post), note_id: published.get(pending.note) })
    assert.equal(lookups, 0)
  })

  /** Whether each of these rows is still provisional (negative id) in the database. */
  const stillPending = async (ids: number[]) => {
    const found: number[] = []
    for (const table of ['contributions', 'memory_revisions'] as const) {
      const rows = await store().db.selectFrom(table).select('id').where('id', 'in', ids).execute()
      found.push(...rows.map((row) => Number(row.id)))
    }
    return ids.map((id) => found.includes(id))
  }

  test("a writer's run publishes the rows it names; the sweep publishes the rest", async () => {
    const named = await pendingPostAndNote(4)
    const other = await pendingPostAndNote(5)
    const publisher = new Publisher(store())
    const resolved = (await answerWith(publisher, named)) as Record<string, number>
    assert.ok(resolved.id! > 0 && resolved.note_id! > 0, JSON.stringify(resolved))
    assert.deepEqual(await stillPending([other.post, other.note]), [true, true], 'rows no writer named wait')
    await publisher.sweep()
    assert.deepEqual(await stillPending([other.post, other.note]), [false, false])
    const later = await publicIdsOf(store().db, [other.post])
    assert.ok(later.get(other.post)! > resolved.id!, 'published later, so a later id: cursors stay safe')
  })

  test('writers waiting for the next run share it, and it publishes what each of them named', async () => {
    const real = store()
    let runs = 0
    const counted = {
      transaction: (fn: Parameters<Database['transaction']>[0]) => {
        runs++
        return real.priority.transaction(fn)
      },
    }
    const publisher = new Publisher(Object.create(real, { priority: { get: () => counted } }) as Database)
    const [a, b, c, d] = [
      await pendingPostAndNote(6),
      await pendingPostAndNote(7),
      await pendingPostAndNote(8),
      await pendingPostAndNote(9),
    ]
    const first = publisher.flush([a.post, a.note])
    const second = [publisher.flush([b.post]), publisher.flush([c.note])]
    const [fromFirst, ...fromSecond] = await Promise.all([first, ...second])
    assert.equal(runs, 2)
    assert.deepEqual([...fromFirst!.keys()].sort(), [a.post, a.note].sort())
    assert.equal(fromSecond[0], fromSecond[1], 'one run for both')
    assert.deepEqual([...fromSecond[0]!.keys()].sort(), [b.post, c.note].sort())
    assert.deepEqual(await stillPending([b.note, c.post, d.post, d.note]), [true, true, true, true])
    // A caller without ids (the sweep) widens the next run to every provisional row.
    const running = publisher.flush([d.post])
    const [, everything] = await Promise.all([running, publisher.flush([d.note]), publisher.flush()])
    assert.deepEqual(await stillPending([b.note, c.post, d.post, d.note]), [false, false, false, false])
    assert.ok(everything!.has(b.note) && everything!.has(c.post) && everything!.has(d.note))
  })

  /**
   * The plans the publisher's connection keeps for its statements (the named rows', the sweep's), as
   * EXPLAIN shows them. Its statements are prepared there, and EXPLAIN EXECUTE plans as a run would:
   * with the reusable plan once PostgreSQL keeps one. Nothing runs; the arguments are nulls.
   */
  const publisherPlans = async () => {
    const db = store().priority.db
    const { rows } = await sql<{ name: string; parameters: number }>`
      select name, cardinality(parameter_types) as parameters from pg_prepared_statements
      where statement like '%pending_0%'`.execute(db)
    const plans: string[] = []
    for (const { name, parameters } of rows) {
      const nulls = sql.join(Array.from({ length: parameters }, () => sql`null`))
      const explained = await sql<{ 'QUERY PLAN': string }>`explain execute ${sql.id(name)}(${nulls})`.execute(db)
      plans.push(explained.rows.map((line) => line['QUERY PLAN']).join('\n'))
    }
    return plans
  }

  test("publication's plans, made while its tables held a few rows, find rows by index (see PUBLISHER_SETTINGS)", async () => {
    const publisher = new Publisher(store())
    // Enough runs of both statements (named rows, the sweep) for PostgreSQL to keep reusable plans
    // made while these tables hold a few rows.
    for (let n = 100; n < 108; n++) {
      const pending = await pendingPostAndNote(n)
      await answerWith(publisher, pending)
      await pendingPostAndNote(n + 100)
      await publisher.sweep()
    }
    // The tables grow, with no ANALYZE to make PostgreSQL plan again (autovacuum off, or not yet come).
    await sql`
      insert into contributions (id, participant_id, thread_id, room, kind, content, client_id, created_at)
      select 1000000 + n, ${AUTHOR}, 1000000 + n, 'connection', 'conversation', 'grown', 'grown-' || n, ${AT}
      from generate_series(1, 5000) as n`.execute(store().db)
    const pending = await pendingPostAndNote(300)
    const resolved = (await answerWith(publisher, pending)) as Record<string, number>
    assert.ok(resolved.id! > 0 && resolved.note_id! > 0, JSON.stringify(resolved))
    const plans = await publisherPlans()
    assert.equal(plans.length, 2, "the named rows' statement and the sweep's")
    for (const plan of plans) assert.doesNotMatch(plan, /Seq Scan on (contributions|memory_revisions|drafts)\b/, plan)
  })

  test("a join's registration statement keeps one generic plan instead of being planned on every join", async () => {
    const plans = await store()
      .db.connection()
      .execute(async (db) => {
        // PostgreSQL plans a named statement's first five runs for their values, then keeps a generic
        // plan unless it costs more: a bound LIMIT made it cost more, so every join was planned anew.
        for (let n = 0; n < 8; n++) {
          const event = { scope: 'join', bucket: `plan-probe-${n}`, window: 1, day: '2026-11-27' }
          const participant = testParticipantRow(`plan-probe-${n}`, `Probe ${n}`, AT)
          const registration = { event, limit: 10, capacity: 1_000_000, participant, keyHash: `plan-probe-key-${n}` }
          // One connection's own transaction, outside Database.transaction: a WriteTx all the same.
          const registered = await db.transaction().execute((tx) => registerParticipant(tx as WriteTx, registration))
          assert.deepEqual(registered, { count: 1, joined: true }, `join ${n}`)
        }
        const { rows } = await sql<{ generic_plans: string; custom_plans: string }>`
          select generic_plans, custom_plans from pg_prepared_statements
          where statement like '%"capacity_slots"%' and statement like '%"abuse_buckets"%'`.execute(db)
        return rows
      })
    assert.equal(plans.length, 1, JSON.stringify(plans))
    assert.ok(Number(plans[0]!.generic_plans) >= 3 && Number(plans[0]!.custom_plans) <= 5, JSON.stringify(plans))
  })

  test("a remembered key holder's check keeps one generic plan, and a stale one fails the transaction's next statement", async () => {
    const keyHash = 'remembered-author-plan-probe'
    await store().transaction((tx) => insertKey(tx, keyHash, AUTHOR, AT))
    const { plans, stale } = await store()
      .db.connection()
      .execute(async (db) => {
        const found = await db.transaction().execute((tx) => findByKeyHash(tx, keyHash))
        const participant = found!.participant
        const checkThenRead = (author: typeof participant) =>
          db.transaction().execute(async (tx) => {
            const held = await keyHolderFor(tx, keyHash, () => author)
            assert.equal(held?.remembered, true, 'not read: checked ahead')
            // The check's answer comes with the next statement.
            await sql`select 1`.execute(tx)
          })
        // Its first five runs are planned for their values; a generic plan costed higher than those
        // would make PostgreSQL plan every check again.
        for (let n = 0; n < 8; n++) await checkThenRead(participant)
        const changed = { ...participant, activity: { ...participant.activity, contributions: 12345 } }
        const stale = await checkThenRead(changed).then(
          () => undefined,
          (err: unknown) => err,
        )
        const { rows } = await sql<{ generic_plans: string; custom_plans: string }>`
          select generic_plans, custom_plans from pg_prepared_statements
          where statement like '%"participant_keys"%' and statement like '%count(*)::int%'`.execute(db)
        return { plans: rows, stale }
      })
    assert.ok(stale instanceof CheckFailed, String(stale))
    assert.equal(plans.length, 1, JSON.stringify(plans))
    assert.ok(Number(plans[0]!.generic_plans) >= 3 && Number(plans[0]!.custom_plans) <= 6, JSON.stringify(plans))
  })

  test("the sweep's look for provisional rows reads the primary key, never the whole table, on a table never analyzed", async () => {
    // A table that grew with no ANALYZE (autovacuum off): PostgreSQL guesses a third of any range.
    await sql`
      insert into contributions (id, participant_id, thread_id, room, kind, content, client_id, created_at)
      select 2000000 + n, ${AUTHOR}, 2000000 + n, 'connection', 'conversation', 'grown', 'swept-' || n, ${AT}
      from generate_series(1, 5000) as n`.execute(store().db)
    // This connection's scans of the table so far (not flushed to the cumulative statistics before
    // the transaction ends, so two readings in it differ by exactly what ran between them).
    const scans = async (tx: Database['db']) => {
      const { rows } = await sql<{ seq_scan: string; idx_scan: string }>`
        select seq_scan, idx_scan from pg_stat_xact_user_tables
        where relname = 'contributions' and schemaname = current_schema()`.execute(tx)
      return { seq: Number(rows[0]?.seq_scan), index: Number(rows[0]?.idx_scan) }
    }
    const [before, found, after] = await store().transaction(async (tx) => [
      await scans(tx),
      await hasPending(tx),
      await scans(tx),
    ])
    assert.equal(found, false)
    assert.deepEqual(after, { seq: before.seq, index: before.index + 1 })
  })
})

/**
 * Housekeeping's usage rollup on a database of its own: what VACUUM may remove depends on every
 * transaction open in the database, and other files' would keep the deleted rows.
 */
describe('the usage rollup on PostgreSQL', { skip: dialect !== 'postgres' }, () => {
  const store = migratedStore({ own: true })

  test('the usage rollup sums every delta exactly and keeps the deltas table from growing round after round', async () => {
    const size = async () => {
      const { rows } = await sql<{ size: string }>`select pg_relation_size('usage_deltas') as size`.execute(store().db)
      return Number(rows[0]?.size)
    }
    const total = async () => {
      const { rows } = await sql<{ value: string }>`
        select value from usage_totals where name = 'rollup.probe'`.execute(store().db)
      return Number(rows[0]?.value)
    }
    const sizes: number[] = []
    for (let round = 1; round <= 6; round++) {
      await sql`insert into usage_deltas (name, delta) select 'rollup.probe', n % 3 - 1 + ${round}
        from generate_series(1, 3000) as n`.execute(store().db)
      sizes.push(await size())
      await store().transaction((tx) => rollupUsage(tx))
      await reclaimDeltaSpace(store().db)
    }
    // n % 3 - 1 sums to 0 over 3,000 rows, so each round adds 3,000 times its number.
    assert.equal(await total(), 3000 * (1 + 2 + 3 + 4 + 5 + 6))
    // Unvacuumed, each round's rows went to new pages: six rounds, six times the first round's pages.
    // Vacuumed, each reuses the pages the one before emptied.
    assert.ok(sizes.at(-1)! < 3 * sizes[0]!, `usage_deltas grew: ${sizes.join(', ')} bytes`)
  })

  test('housekeeping vacuums the deltas every tenth pass, not every pass', async (t) => {
    const vacuums = async () => {
      const { rows } = await sql<{ count: string }>`
        select vacuum_count as count from pg_stat_user_tables where relname = 'usage_deltas'`.execute(store().db)
      return Number(rows[0]?.count)
    }
    const { pass, stop } = housekeepingPasses(t, store())
    const before = await vacuums()
    const counted: number[] = []
    for (let round = 1; round <= 10; round++) {
      await pass()
      counted.push((await vacuums()) - before)
    }
    await stop()
    assert.deepEqual(counted, [0, 0, 0, 0, 0, 0, 0, 0, 0, 1])
  })
})

describe(
  'the write path on PostgreSQL: each last write takes its COMMIT along',
  { skip: dialect !== 'postgres' },
  () => {
    const { t } = useServer()

    test('contribute, join and publication send their COMMIT before the answer to their last write', async () => {
      // Every statement the server's connections send, and when its answer came back, in order.
      const events: string[] = []
      const original = pg.Client.prototype.query
      const watched = function (this: pg.Client, ...args: unknown[]) {
        const first = args[0] as string | { text: string }
        const text = typeof first === 'string' ? first : first.text
        events.push(`send ${text}`)
        const answer = (original as (...a: unknown[]) => unknown).apply(this, args)
        if (answer instanceof Promise)
          answer.then(
            () => events.push(`done ${text}`),
            () => events.push(`failed ${text}`),
          )
        return answer
      }
      pg.Client.prototype.query = watched as typeof original
      try {
        const author = await t.join('Ender', 'ending-model')
        const fields = { content: 'the last write ends it', client_id: 'ending-1' }
        const root = await post(t, author.key, fields)
        assert.equal(root.status, 200)
        assert.ok(root.body.id > 0, 'published')
        // A retry inserts nothing, then reads the earlier post after the transaction has ended.
        const retry = await post(t, author.key, fields)
        assert.deepEqual(retry.body, { ...root.body, duplicate: true })
      } finally {
        pg.Client.prototype.query = original
      }
      const ending = events.flatMap((event, at) => (event.startsWith(`send ${ENDS_TRANSACTION}`) ? [at] : []))
      const kinds = ending.map((at) => {
        const text = events[at] as string
        return text.includes('insert into "contributions"')
          ? 'contribute'
          : text.includes('insert into "participants"')
            ? 'join'
            : text.includes('update "contributions" t set id')
              ? 'publication'
              : text
      })
      assert.deepEqual([...new Set(kinds)].sort(), ['contribute', 'join', 'publication'])
      for (const at of ending) {
        const text = (events[at] as string).slice('send '.length)
        const commit = events.indexOf('send commit', at)
        const answered = events.findIndex(
          (event, i) => i > at && (event === `done ${text}` || event === `failed ${text}`),
        )
        assert.ok(
          commit === at + 1 && commit < answered,
          `COMMIT sent right after, before the answer: ${events.slice(at, at + 4).join(' | ')}`,
        )
      }
    })
  },
)

describe(
  'keyless writes on PostgreSQL read whether writes are paused before their transaction',
  { skip: dialect !== 'postgres' },
  () => {
    const store = migratedStore()
    const { t } = useServer({ config: { registrationRatePerMinute: 1000 } })

    /** Runs fn while every statement sent is recorded with the connection it went on. */
    const recording = async <T>(
      fn: () => Promise<T>,
    ): Promise<{ result: T; sent: Array<{ on: pg.Client; text: string }> }> => {
      const sent: Array<{ on: pg.Client; text: string }> = []
      const original = pg.Client.prototype.query
      pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
        const first = args[0] as string | { text: string }
        sent.push({ on: this, text: typeof first === 'string' ? first : first.text })
        return (original as (...a: unknown[]) => unknown).apply(this, args)
      } as typeof original
      try {
        return { result: await fn(), sent }
      } finally {
        pg.Client.prototype.query = original
      }
    }
    const isFlagRead = (text: string) => text.includes('from "service_flags"')

    test('joins read the flag outside their transactions, and a pause still refuses the next', async () => {
      const { result: joins, sent } = await recording(() =>
        Promise.all(Array.from({ length: 6 }, (_, i) => t.act('join', { name: `j${i}`, model: 'm' }))),
      )
      assert.deepEqual(
        joins.map((j) => j.status),
        [200, 200, 200, 200, 200, 200],
      )
      const inTransaction = new Set<pg.Client>()
      let reads = 0
      for (const { on, text } of sent) {
        if (/^begin/i.test(text)) inTransaction.add(on)
        else if (/^(commit|rollback)/i.test(text)) inTransaction.delete(on)
        else if (isFlagRead(text)) {
          reads++
          assert.ok(!inTransaction.has(on), 'read before the transaction, not as one of its round trips')
        }
      }
      assert.ok(reads >= 1 && reads <= 6, `at most one read per join (${reads})`)
      assert.equal((await op(t, 'pause_writes', { reason_code: 'other', reason: 'test' })).status, 200)
      const refused = await t.act<{ error: { code: string } }>('join', { name: 'late', model: 'm' })
      assert.equal(refused.body.error.code, 'writes_paused')
    })

    test('flag reads asked for in one turn share one query', async () => {
      const { result, sent } = await recording(() =>
        Promise.all(Array.from({ length: 6 }, () => sharedFlag(store().db, WRITES_PAUSED))),
      )
      assert.deepEqual(result, Array(6).fill(undefined))
      assert.equal(sent.filter(({ text }) => isFlagRead(text)).length, 1)
    })
  },
)
