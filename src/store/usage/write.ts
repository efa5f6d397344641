import { sql, type OnConflictBuilder, type QueryCreator, type Selectable } from 'kysely'
import { PARTICIPATION_CATEGORIES } from '../../schemas/usage.ts'
import { ROOM_IDS } from '../../schemas/rooms.ts'
import { USAGE_COUNTERS as U } from '../counter-names.ts'
import { collectFor, type CommitHook } from '../../db/commit-hooks.ts'
import type { Db, WriteTx } from '../../db/database.ts'
import { isPostgres } from '../../db/dialect.ts'
import type { Schema } from '../../db/schema.ts'
import type { UsageParticipantTable } from './tables.ts'

/**
 * Usage accounting behind view=usage. A write changes its participant's activity row (already
 * serialized per participant) and appends counter deltas: no counter row is updated by writes, so
 * writers never wait on one another (rollupUsage folds the deltas into totals later). Every figure of
 * the summary is a counter, so reading it costs the same at 450 or 100,000 participants.
 *
 * The functions below are pure: the activity before a write and the write's facts in, the activity
 * changes and the counter deltas out. `saveUsage` persists both in the caller's transaction.
 */
export type Activity = Selectable<UsageParticipantTable>
export type Deltas = Map<string, number>
export interface UsageChange {
  changes: Partial<Activity>
  deltas: Deltas
}

export function emptyActivity(participantId: string): Activity {
  return {
    participant_id: participantId,
    contributions: 0,
    post_dates: 0,
    appreciations_given: 0,
    feedback_reports: 0,
    last_post_date: null,
    last_visit_date: null,
    prev_visit_date: null,
    rooms_mask: 0,
    last_contribution_at: null,
  }
}

/** The usage category of a provenance value: any value outside the listed categories counts as unknown. */
export function categoryOf(provenance: string): string {
  return (PARTICIPATION_CATEGORIES as readonly string[]).includes(provenance) ? provenance : 'unknown'
}

function add(deltas: Deltas, name: string, delta = 1): void {
  deltas.set(name, (deltas.get(name) ?? 0) + delta)
}

/** Moves a participant's mark in a date histogram (e.g. "latest post date") from one date to another. */
function moveDate(deltas: Deltas, histogram: (date: string) => string, from: string | null, to: string | null) {
  if (from === to) return
  if (from !== null) add(deltas, histogram(from), -1)
  if (to !== null) add(deltas, histogram(to), 1)
}

export function joinUsage(p: { provenance: string; newModelLabel: boolean; status: string }): Deltas {
  const deltas: Deltas = new Map()
  add(deltas, U.participants)
  add(deltas, U.categoryParticipants(categoryOf(p.provenance)))
  if (p.newModelLabel) add(deltas, U.modelLabels)
  if (p.status === 'paused') add(deltas, U.paused)
  return deltas
}

/** The activity columns every post moves: fixed, so a post and its usage can be one statement. */
export const POST_ACTIVITY_COLUMNS = [
  'contributions',
  'post_dates',
  'last_post_date',
  'rooms_mask',
  'last_contribution_at',
] as const satisfies ReadonlyArray<keyof Activity>
export type PostActivity = Pick<Activity, (typeof POST_ACTIVITY_COLUMNS)[number]>
export interface PostUsage extends UsageChange {
  changes: PostActivity
}

export function contributionUsage(
  a: Activity,
  p: { provenance: string; room: string; isReply: boolean; dateUtc: string; at: string },
): PostUsage {
  const deltas: Deltas = new Map()
  const category = categoryOf(p.provenance)
  add(deltas, U.contributions)
  add(deltas, U.categoryContributions(category))
  add(deltas, U.dayContributions(p.dateUtc))
  add(deltas, U.roomContributions(p.room))
  if (p.isReply) add(deltas, U.replies)
  if (Number(a.contributions) === 0) add(deltas, U.contributing)
  const bit = 2 ** ROOM_IDS.indexOf(p.room as (typeof ROOM_IDS)[number])
  const roomsMask = Number(a.rooms_mask)
  if (Math.floor(roomsMask / bit) % 2 === 0) add(deltas, U.roomAgents(p.room))
  // Time only moves forward, so a date after the latest post date is a new posting date.
  const newDate = a.last_post_date === null || a.last_post_date < p.dateUtc
  const postDates = Number(a.post_dates) + (newDate ? 1 : 0)
  if (newDate && postDates === 2) add(deltas, U.categoryReturning(category))
  if (newDate) moveDate(deltas, U.latestPostDate, a.last_post_date, p.dateUtc)
  return {
    changes: {
      contributions: Number(a.contributions) + 1,
      post_dates: postDates,
      last_post_date: newDate ? p.dateUtc : a.last_post_date,
      rooms_mask: roomsMask | bit,
      // A post that got the participant's row lock after one that started later keeps the later time.
      last_contribution_at:
        a.last_contribution_at !== null && a.last_contribution_at > p.at ? a.last_contribution_at : p.at,
    },
    deltas,
  }
}

/** A visit that counted (the first of its participant's UTC half-hour). */
export function visitUsage(a: Activity, dateUtc: string): UsageChange {
  const deltas: Deltas = new Map()
  add(deltas, U.dayVisitIntervals(dateUtc))
  if (a.last_visit_date !== null && a.last_visit_date >= dateUtc) return { changes: {}, deltas }
  add(deltas, U.dayVisitingAgents(dateUtc))
  moveDate(deltas, U.latestVisitDate, a.last_visit_date, dateUtc)
  moveDate(deltas, U.previousVisitDate, a.prev_visit_date, a.last_visit_date)
  return { changes: { last_visit_date: dateUtc, prev_visit_date: a.last_visit_date }, deltas }
}

export function appreciationUsage(a: Activity): UsageChange {
  const deltas: Deltas = new Map([[U.appreciations, 1]])
  if (Number(a.appreciations_given) === 0) add(deltas, U.appreciating)
  return { changes: { appreciations_given: Number(a.appreciations_given) + 1 }, deltas }
}

export function feedbackUsage(
  a: Activity,
  f: { category: string; outcome: string | null; fit: number | null },
): UsageChange {
  const deltas: Deltas = new Map([
    [U.feedbackReports, 1],
    [U.feedbackCategory(f.category), 1],
  ])
  if (Number(a.feedback_reports) === 0) add(deltas, U.reporting)
  if (f.outcome !== null) add(deltas, U.feedbackOutcome(f.outcome))
  if (f.fit !== null) {
    add(deltas, U.feedbackRated)
    add(deltas, U.feedbackFitSum, f.fit)
  }
  return { changes: { feedback_reports: Number(a.feedback_reports) + 1 }, deltas }
}

/** A new latest review moves its report from the previous status (or unreviewed) to the new one. */
export function reviewUsage(previous: string | null, status: string): Deltas {
  const deltas: Deltas = new Map()
  if (previous === status) return deltas
  if (previous !== null) add(deltas, U.reviewStatus(previous), -1)
  add(deltas, U.reviewStatus(status))
  return deltas
}

export function statusUsage(from: string, to: string): Deltas {
  const deltas: Deltas = new Map()
  if (from !== to) add(deltas, U.paused, to === 'paused' ? 1 : -1)
  return deltas
}

/** An operator's new provenance moves the participant, with its contributions, between categories. */
export function provenanceUsage(a: Activity, from: string, to: string): Deltas {
  const deltas: Deltas = new Map()
  const [before, after] = [categoryOf(from), categoryOf(to)]
  if (before === after) return deltas
  for (const [category, sign] of [
    [before, -1],
    [after, 1],
  ] as const) {
    add(deltas, U.categoryParticipants(category), sign)
    add(deltas, U.categoryContributions(category), sign * Number(a.contributions))
    if (Number(a.post_dates) >= 2) add(deltas, U.categoryReturning(category), sign)
  }
  return deltas
}

export async function insertActivity(db: WriteTx, participantId: string): Promise<void> {
  await db.insertInto('usage_participants').values(emptyActivity(participantId)).execute()
}

/**
 * Persists a write's usage in its transaction: the activity row's update and the deltas' insert, as
 * one statement on PostgreSQL (a data-modifying WITH: one round trip less on every write).
 */
export async function saveUsage(db: WriteTx, participantId: string | null, usage: UsageChange): Promise<void> {
  const rows = deltaRows(usage.deltas)
  const changes = participantId !== null && Object.keys(usage.changes).length > 0 ? usage.changes : undefined
  const update = (qc: QueryCreator<Schema>) =>
    qc
      .updateTable('usage_participants')
      .set(changes ?? {})
      .where('participant_id', '=', participantId as string)
  if (changes && rows.length > 0 && isPostgres(db)) {
    await db.with('activity', update).insertInto('usage_deltas').values(rows).execute()
    return
  }
  if (changes) await update(db).execute()
  await appendDeltas(db, usage.deltas)
}

/**
 * The deltas of the writes that share a COMMIT (the SQLite group commit, db/sqlite-batches.ts), summed
 * per counter and inserted once just before it instead of once per write: those inserts cost about a
 * third of a contribute. Figures stay exact: the sum reaches usage_deltas in the same transaction as
 * the writes it counts, and a refused write's deltas go with it.
 */
export const USAGE_DELTAS: CommitHook<Deltas> = {
  name: 'usage deltas',
  start: () => new Map(),
  finish: (tx, collected) => {
    const sums: Deltas = new Map()
    for (const deltas of collected) addInto(sums, deltas)
    return insertDeltas(tx, sums)
  },
}

/** Appends a write's deltas: to its COMMIT's sum where the transaction shares one, else as rows now. */
export async function appendDeltas(db: WriteTx, deltas: Deltas): Promise<void> {
  const sums = collectFor(db, USAGE_DELTAS)
  if (sums) return addInto(sums, deltas)
  await insertDeltas(db, deltas)
}

function addInto(sums: Deltas, deltas: Deltas): void {
  for (const [name, delta] of deltas) sums.set(name, (sums.get(name) ?? 0) + delta)
}

/** Writes deltas as rows now (counters whose delta is zero left out). */
export async function insertDeltas(db: WriteTx, deltas: Deltas): Promise<void> {
  const rows = deltaRows(deltas)
  if (rows.length > 0) await db.insertInto('usage_deltas').values(rows).execute()
}

export function deltaRows(deltas: Deltas): Array<{ name: string; delta: number }> {
  return [...deltas].filter(([, delta]) => delta !== 0).map(([name, delta]) => ({ name, delta }))
}

/** A sum for a counter that already has a total is added to it. */
const addedToTotal = (oc: OnConflictBuilder<Schema, 'usage_totals'>) =>
  oc.column('name').doUpdateSet((eb) => ({ value: eb('usage_totals.value', '+', eb.ref('excluded.value')) }))

/**
 * Folds appended deltas into the totals, summed per counter by the database. Safe to run anywhere at
 * any time: each delta row is deleted by exactly one rollup (a concurrent one waits for the row and
 * then finds it gone), and its value is added to its total in the same transaction. On PostgreSQL the
 * rows are deleted and summed in one statement, so a row committed meanwhile is neither deleted nor
 * counted; SQLite, which cannot delete in a WITH, reads them and deletes them after, its one writer
 * letting nothing in between.
 */
export async function rollupUsage(db: WriteTx): Promise<void> {
  const postgres = isPostgres(db)
  const moved = postgres
    ? db.with('moved', (qc) => qc.deleteFrom('usage_deltas').returning(['name', 'delta']))
    : db.with('moved', (qc) => qc.selectFrom('usage_deltas').select(['name', 'delta']))
  await moved
    .insertInto('usage_totals')
    .columns(['name', 'value'])
    .expression((eb) =>
      eb
        .selectFrom('moved')
        .select((row) => ['name', row.fn.sum<number>('delta').as('value')])
        // SQLite reads an upsert's ON after a bare FROM as a join's: its documentation asks for a WHERE.
        .where(sql.lit(true))
        .groupBy('name'),
    )
    .onConflict(addedToTotal)
    .execute()
  if (!postgres) await db.deleteFrom('usage_deltas').execute()
}

/**
 * The rollup empties usage_deltas every second, and PostgreSQL reuses the space of deleted rows only
 * once the table is vacuumed: where autovacuum is off or slow, every insert extended the table and
 * every rollup and usage summary read all of it (156 MB holding 5,775 rows after 400,000 writes: the
 * rollup 49 ms; the summary 22-49 ms over a million deleted rows, 0.9 ms vacuumed). Vacuumed every
 * tenth rollup (core/housekeeping.ts) it stays a few pages. SKIP_LOCKED lets an instance pass while
 * another vacuums it; TRUNCATE false keeps the emptied pages, whose truncation takes a lock every
 * writer then waits for (runs of 100-300 ms). SQLite reuses freed pages by itself. Nothing depends on
 * it, so a failure is ignored: an engine without VACUUM (the wire-compatible ones DESIGN.md names) or
 * a role that does not own the table leaves the space to the engine's own cleanup.
 */
export async function reclaimDeltaSpace(db: Db): Promise<void> {
  if (isPostgres(db)) await sql`vacuum (skip_locked, truncate false) usage_deltas`.execute(db).catch(() => {})
}
