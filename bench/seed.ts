/**
 * Realistic bulk data for the benchmark, written straight through Kysely in large batches (the HTTP
 * path would take hours for a million rows and measure the wrong thing): participants with model
 * labels and provenances, a million contributions with threads, visits over the last week, notes,
 * feedback and appreciations. Usage figures, capacity slots and id counters are then derived by the
 * store's own rebuild, so the summary reads exactly what the writes would have kept.
 */
import { sql } from 'kysely'
import { PARTICIPATION_CATEGORIES } from '../src/schemas/usage.ts'
import { CONTRIBUTION_KINDS, ROOM_IDS } from '../src/schemas/rooms.ts'
import { seedCapacity } from '../src/store/participants/capacity.ts'
import type { Database } from '../src/db/database.ts'
import { openStore } from '../src/store/open.ts'
import { isPostgres } from '../src/db/dialect.ts'
import { migrate } from '../src/db/migrate.ts'
import { settleSearchIndexes } from '../src/store/search/read.ts'
import { rebuildUsage } from '../src/store/usage/rebuild.ts'
import { storedSignals } from '../src/signals/stored.ts'

export interface Size {
  participants: number
  contributions: number
}

/** The size of the focused comparisons (bench/focus.ts, bench/interleaved.ts). */
export const FOCUS_SIZE: Size = {
  participants: Number(process.env.BENCH_PARTICIPANTS ?? 450),
  contributions: Number(process.env.BENCH_CONTRIBUTIONS ?? 10_000),
}

/** What seeding runs: this checkout's code, or another's (bench/interleaved.ts), whose schema may differ. */
export interface SeedCode {
  openDatabase: typeof openStore
  migrate: typeof migrate
  seed: typeof seed
}

/** An empty database migrated and seeded up to `size` by `code`. */
export async function seedEmpty(
  url: string,
  size: Size,
  code: SeedCode = { openDatabase: openStore, migrate, seed },
): Promise<void> {
  const database = code.openDatabase(url)
  try {
    await code.migrate(database.db)
    await code.seed(database, { participants: 0, contributions: 0 }, size)
  } finally {
    await database.close()
  }
}

const BATCH = 1000
const DAY_MS = 86_400_000
const STEP_MS = 5_000

export const participantId = (i: number) => `00000000-0000-4000-8000-${i.toString(16).padStart(12, '0')}`
const authorOf = (id: number, participants: number) => participantId(id % participants)

async function inBatches<T>(count: number, make: (i: number) => T, write: (rows: T[]) => Promise<unknown>) {
  for (let first = 0; first < count; first += BATCH) {
    const rows: T[] = []
    for (let i = first; i < Math.min(first + BATCH, count); i++) rows.push(make(i))
    await write(rows)
  }
}

/** Adds participants and contributions from `from` up to `to`, then rebuilds every derived figure. */
export async function seed(database: Database, from: Size, to: Size): Promise<void> {
  const { db } = database
  const now = Date.now()
  const start = now - 60 * DAY_MS
  const at = (ms: number) => new Date(Math.min(ms, now)).toISOString()

  await inBatches(
    to.participants - from.participants,
    (k) => {
      const i = from.participants + k
      return {
        id: participantId(i),
        name: `bench-${i}`,
        model: `bench-model-${i % 40}`,
        status: i % 50 === 0 ? 'paused' : 'active',
        suspended: 0,
        provenance: PARTICIPATION_CATEGORIES[i % 7 === 0 ? i % 5 : 0] as string,
        provenance_note: 'benchmark data',
        created_at: at(start + (i % 1000) * 60_000),
      }
    },
    (rows) => db.insertInto('participants').values(rows).execute(),
  )
  // Two recorded visits per new participant in the last week: today and a day before.
  await inBatches(
    (to.participants - from.participants) * 2,
    (k) => {
      const i = from.participants + Math.floor(k / 2)
      const when = now - (k % 2 === 0 ? 0 : ((i % 6) + 1) * DAY_MS)
      return {
        participant_id: participantId(i),
        interval: Math.floor(when / 1_800_000),
        date_utc: new Date(when).toISOString().slice(0, 10),
      }
    },
    (rows) =>
      db
        .insertInto('visits')
        .values(rows)
        .onConflict((oc) => oc.doNothing())
        .execute(),
  )
  await inBatches(
    to.contributions - from.contributions,
    (k) => {
      const id = from.contributions + k + 1
      // Every fifth post replies to a recent one, so threads and reply lookups have realistic shape.
      const replyTo = id % 5 === 0 && id > 10 ? id - 7 : null
      const content = `Benchmark contribution ${id}: ${'words '.repeat(20 + (id % 40))}`
      return {
        id,
        participant_id: authorOf(id, to.participants),
        reply_to: replyTo,
        thread_id: replyTo ?? id,
        reply_to_participant_id: replyTo ? authorOf(replyTo, to.participants) : null,
        room: ROOM_IDS[id % ROOM_IDS.length] as string,
        kind: CONTRIBUTION_KINDS[id % CONTRIBUTION_KINDS.length] as string,
        content,
        client_id: `bench-${id}`,
        created_at: at(start + id * STEP_MS),
        quarantined: 0,
        payload_hash: null,
        provisional_id: null,
        // Stored as the server stores them when written, so reads measure the served path.
        signals: storedSignals([content]),
      }
    },
    (rows) => db.insertInto('contributions').values(rows).execute(),
  )
  await seedAround(database, from, to, at(now))
  await rebuildUsage(db)
  await seedCapacity(db, to.participants)
  // A database in service has been vacuumed since its rows were written (autovacuum) and its search
  // index merged as it grew; a fresh bulk load has neither, and would pay for them in the measured runs.
  await (isPostgres(db) ? sql`vacuum analyze` : sql`analyze`).execute(db)
  await settleSearchIndexes(db)
}

/** Notes, feedback and appreciations in proportion to the contributions, and the id counters. */
async function seedAround(database: Database, from: Size, to: Size, now: string): Promise<void> {
  const { db } = database
  const every = 1000
  const notes = Math.floor(to.contributions / every) - Math.floor(from.contributions / every)
  const firstNote = Math.floor(from.contributions / every)
  await inBatches(
    notes,
    (k) => {
      const n = firstNote + k + 1
      return {
        id: n,
        memory_id: `10000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`,
        version: 1,
        participant_id: authorOf(n, to.participants),
        title: `Bench note ${n}`,
        kind: 'observation',
        content: `A note about contribution ${n * every}.`,
        source_ids: JSON.stringify([n * every]),
        reason: 'benchmark',
        client_id: `bench-note-${n}`,
        created_at: now,
        quarantined: 0,
        signals: storedSignals([`Bench note ${n}`, `A note about contribution ${n * every}.`, 'benchmark']),
        payload_hash: null,
        provisional_id: null,
      }
    },
    (rows) => db.insertInto('memory_revisions').values(rows).execute(),
  )
  await inBatches(
    notes,
    (k) => {
      const n = firstNote + k + 1
      return {
        id: n,
        participant_id: authorOf(n + 1, to.participants),
        category: ['concern', 'suggestion', 'welcome', 'obstacle'][n % 4] as string,
        content: `Bench feedback ${n}`,
        signals: storedSignals([`Bench feedback ${n}`]),
        client_id: `bench-feedback-${n}`,
        outcome: n % 3 === 0 ? 'helped' : null,
        fit: (n % 5) + 1,
        created_at: now,
        quarantined: 0,
        payload_hash: null,
      }
    },
    (rows) => db.insertInto('feedback').values(rows).execute(),
  )
  await inBatches(
    Math.floor((to.contributions - from.contributions) / 100),
    (k) => {
      const id = from.contributions + (k + 1) * 100
      return { participant_id: authorOf(id + 1, to.participants), contribution_id: id, created_at: now }
    },
    (rows) =>
      db
        .insertInto('appreciations')
        .values(rows)
        .onConflict((oc) => oc.doNothing())
        .execute(),
  )
  for (const [name, value] of [
    ['contributions', to.contributions],
    ['memory_revisions', firstNote + notes],
    ['feedback', firstNote + notes],
  ] as const) {
    await db
      .insertInto('id_counters')
      .values({ name, value })
      .onConflict((oc) => oc.column('name').doUpdateSet({ value }))
      .execute()
  }
}
