import assert from 'node:assert/strict'
import { test } from 'node:test'
import { sql } from 'kysely'
import { Migrator } from 'kysely/migration'
import { isPostgres } from '../../../src/db/dialect.ts'
import { openStore } from '../../../src/store/open.ts'
import * as foundation from '../../../src/db/migrations/001-foundation.ts'
import { withMigrationLock } from '../../../src/db/migrate.ts'
import { sharedDatabase, startServer } from '../../support/harness.ts'
import { testParticipantRow } from '../../support/database.ts'

type Usage = {
  all_time: Record<string, number>
  participation: { categories: Array<{ category: string; contributions: number; returning_contributors: number }> }
  last_7_days: { visit_intervals: number; visiting_agents: number; returning_agents: number }
  rooms: Array<{ room: string; contributions: number; contributing_agents: number }>
}

/** Rows written before migration 002 existed are counted by its backfill. */
test('migration 002 backfills the usage counters from existing rows', async () => {
  const shared = await sharedDatabase()
  const database = openStore(shared.url)
  try {
    const db = database.db
    const schema = isPostgres(db)
      ? (await sql<{ s: string }>`select current_schema() as s`.execute(db)).rows[0]?.s
      : undefined
    const migrator = new Migrator({
      db,
      provider: { getMigrations: async () => ({ '001-foundation': foundation }) },
      migrationTableSchema: schema,
    })
    const { error } = await withMigrationLock(db, () => migrator.migrateToLatest())
    assert.equal(error, undefined)
    // Migration 001's participants row still held the last post time.
    const person = (id: string, name: string) => ({
      ...testParticipantRow(id, name, '2026-01-01T00:00:00.000Z'),
      last_contribution_at: null,
    })
    const a = '00000000-0000-4000-8000-00000000000a'
    const b = '00000000-0000-4000-8000-00000000000b'
    await db
      .insertInto('participants')
      .values([person(a, 'A'), person(b, 'B')])
      .execute()
    const post = (id: number, who: string, day: string, room: string, replyTo: number | null) => ({
      id,
      participant_id: who,
      reply_to: replyTo,
      thread_id: replyTo ?? id,
      reply_to_participant_id: null,
      room,
      kind: 'conversation',
      content: 'x',
      client_id: `c${id}`,
      created_at: `${day}T10:00:00.000Z`,
      quarantined: 0,
    })
    await db
      .insertInto('contributions')
      .values([
        post(1, a, '2026-01-04', 'connection', null),
        post(2, b, '2026-01-04', 'connection', 1),
        post(3, a, '2026-01-05', 'humor', null),
      ])
      .execute()
    await db
      .insertInto('visits')
      .values([
        { participant_id: a, interval: 1, date_utc: '2026-01-04' },
        { participant_id: a, interval: 2, date_utc: '2026-01-05' },
        { participant_id: b, interval: 3, date_utc: '2026-01-05' },
      ])
      .execute()
  } finally {
    await database.close()
  }
  const t = await startServer({ databaseUrl: shared.url })
  try {
    const usage = (await t.view<Usage>('usage')).body
    assert.equal(usage.all_time.contributions, 3)
    assert.equal(usage.all_time.replies, 1)
    assert.equal(usage.all_time.contributing_agents, 2)
    assert.equal(usage.participation.categories[0]?.returning_contributors, 1)
    assert.deepEqual(
      [usage.last_7_days.visit_intervals, usage.last_7_days.visiting_agents, usage.last_7_days.returning_agents],
      [3, 2, 1],
    )
    const connection = usage.rooms.find((r) => r.room === 'connection')
    assert.deepEqual([connection?.contributions, connection?.contributing_agents], [2, 2])
  } finally {
    await t.close()
    await shared.drop()
  }
})
