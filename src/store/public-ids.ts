import { sql, type RawBuilder } from 'kysely'
import { nextId } from './counters.ts'
import type { Db, WriteTx } from '../db/database.ts'
import { isPostgres } from '../db/dialect.ts'
import { ENDS_TRANSACTION } from '../db/pg-statements.ts'

/**
 * Ids of contributions and note revisions are cursors: a reader polling with `after` must never see
 * id N+1 before a row with id N that commits later. SQLite writes one transaction at a time, so an id
 * taken from the counter inside the transaction is already in commit order. On PostgreSQL a counter
 * row locked until commit would make every writer wait for the one before it (commits wait ~2 ms for
 * the disk), so there a row is inserted with a provisional negative id from a sequence, invisible to
 * public reads (they only show ids > 0), and `publishPending` gives committed rows their public ids
 * afterwards, in one short transaction under an advisory lock: a row that commits late simply gets a
 * later id. Ids stay dense (rolled-back rows never get one), so the counter also counts the rows.
 */
export type PublicTable = 'contributions' | 'memory_revisions'
export const PUBLIC_TABLES: readonly PublicTable[] = ['contributions', 'memory_revisions']

/** Which drafts point at a row of the table once published (drafts.post_id). */
const DRAFT_ACTION = { contributions: 'contribute', memory_revisions: 'save_shared_memory' } as const
/** Serializes publication across instances (an arbitrary constant: "clear" in ASCII). */
const PUBLISH_LOCK = 0x636c6561

/**
 * The id a new row is inserted with: public on SQLite, provisional (negative) on PostgreSQL. A hot
 * insert draws it in its own statement instead (PROVISIONAL_ID), saving a round trip.
 */
export async function allocateId(db: WriteTx, table: PublicTable): Promise<{ id: number; provisional: number | null }> {
  if (!isPostgres(db)) return { id: await nextId(db, table), provisional: null }
  const { rows } = await sql<{ id: number }>`select -nextval('provisional_ids') as id`.execute(db)
  const id = Number(rows[0]?.id)
  return { id, provisional: id }
}

/** A provisional id, drawn inside an insert on PostgreSQL (see insertContribution). */
export const PROVISIONAL_ID = sql<number>`-nextval('provisional_ids')`

/**
 * Gives committed provisional rows of both tables their public ids, in allocation order, and returns
 * provisional -> public: the rows with the provisional ids given (both tables draw from one
 * sequence), or every provisional row. Run in a transaction of its own (PostgreSQL only). One
 * statement for both tables (each statement is a round trip the publishing writers wait for): per
 * table, the rows, a root's thread_id, the id counter and drafts published as that row move together.
 *
 * Writers name their rows: looked up by primary key, a run costs what it publishes. Every provisional
 * row is found by a range scan of the negative ids, and each row published leaves a dead index entry
 * there until the table is vacuumed, which a range scan reads again every time (10,500 writes after a
 * vacuum, one such scan read 500 pages). So "every row" is left to the sweep, for rows no writer named.
 */
export async function publishPending(db: Db, only?: readonly number[]): Promise<Map<number, number>> {
  await sql`select pg_advisory_xact_lock(${PUBLISH_LOCK})`.execute(db)
  const pending = only ? sql`id = any(${[...only]}::bigint[]) and id < 0` : sql`id < 0`
  const steps = PUBLIC_TABLES.map((table, n) => {
    const name = (step: string) => sql.id(`${step}_${n}`)
    return sql`
      ${name('base')} as (select coalesce((select value from id_counters where name = ${table}), 0) as top),
      ${name('pending')} as (
        select id as old, (select top from ${name('base')}) + row_number() over (order by id desc) as new
        from ${sql.table(table)} where ${pending}
      ),
      ${name('moved')} as (
        update ${sql.table(table)} t set id = p.new
          ${table === 'contributions' ? sql`, thread_id = case when t.thread_id = p.old then p.new else t.thread_id end` : sql``}
        from ${name('pending')} p where t.id = p.old
        returning p.old, p.new
      ),
      ${name('counted')} as (
        insert into id_counters (name, value)
        select ${table}, (select top from ${name('base')}) + count(*) from ${name('moved')}
        having count(*) > 0
        on conflict (name) do update set value = excluded.value
      ),
      ${name('drafts')} as (
        update drafts d set post_id = m.new from ${name('moved')} m
        where d.post_id = m.old and d.participation_action = ${DRAFT_ACTION[table]}
      )`
  })
  const moved = PUBLIC_TABLES.map((_table, n) => sql`select old, new from ${sql.id(`moved_${n}`)}`)
  // Its transaction's last write: the COMMIT goes with it (db/pg-statements.ts).
  const { rows } = await sql<{ old: number; new: number }>`${sql.raw(ENDS_TRANSACTION)}
    with ${sql.join(steps, sql`,`)} ${sql.join(moved, sql` union all `)}`.execute(db)
  return new Map(rows.map((row) => [Number(row.old), Number(row.new)]))
}

/**
 * True when rows wait for a public id: a range scan of the primary key, in its order. Unordered, a
 * table never analyzed (autovacuum off) was scanned whole instead, as PostgreSQL guesses a third of
 * its rows have negative ids: 49 ms each second at 430,000 contributions, none of them provisional.
 */
export async function hasPending(db: Db): Promise<boolean> {
  for (const table of PUBLIC_TABLES) {
    const row = await db.selectFrom(table).select('id').where('id', '<', 0).orderBy('id').limit(1).executeTakeFirst()
    if (row) return true
  }
  return false
}

/** The public ids of rows inserted with these provisional ids (any table); missing while unpublished. */
export async function publicIdsOf(db: Db, provisional: number[]): Promise<Map<number, number>> {
  const found = new Map<number, number>()
  if (provisional.length === 0) return found
  for (const table of PUBLIC_TABLES) {
    const rows = await db
      .selectFrom(table)
      .select(['id', 'provisional_id'])
      .where('provisional_id', 'in', provisional)
      .where('id', '>', 0)
      .execute()
    for (const row of rows) found.set(Number(row.provisional_id), Number(row.id))
  }
  return found
}

/**
 * "This row is public", for the base queries of public reads: published on PostgreSQL (id > 0), or
 * any SQLite row (no provisional id). Written as a test on provisional_id rather than a range on id
 * on purpose: SQLite uses one range per column, and a second lower bound on id beside a cursor's
 * (`id > after`) would make it scan from id 0 (95,000 rows to reach the newest page of 100,000).
 */
export function isPublic(alias: 'c' | 'm'): RawBuilder<boolean> {
  return sql<boolean>`(${sql.ref(`${alias}.provisional_id`)} is null or ${sql.ref(`${alias}.id`)} > 0)`
}
