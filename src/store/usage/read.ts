import { emptyActivity, type Activity } from './write.ts'
import { sql } from 'kysely'
import type { Db } from '../../db/database.ts'
import { prepared } from '../../db/prepared.ts'

/**
 * Reads behind view=usage: counter lookups by name, never a scan of participants or contributions,
 * so the summary costs the same at any size. Totals and the deltas not yet rolled up are summed in
 * ONE statement, so the read sees a rollup either wholly before or wholly after it.
 */
export async function counters(db: Db, names: string[]): Promise<Map<string, number>> {
  const { rows } = await sql<{ name: string; value: number }>`
    select name, sum(value) as value from (
      select name, value from usage_totals where name in (${sql.join(names)})
      union all
      select name, delta as value from usage_deltas where name in (${sql.join(names)})
    ) as counted group by name`.execute(db)
  return new Map(rows.map((r) => [r.name, Number(r.value)]))
}

export async function firstRegistration(db: Db): Promise<string | undefined> {
  const row = await db.selectFrom('participants').select('created_at').orderBy('created_at').limit(1).executeTakeFirst()
  return row?.created_at
}

export async function findActivity(db: Db, participantId: string): Promise<Activity> {
  const row = await db
    .selectFrom('usage_participants')
    .selectAll()
    .where('participant_id', '=', participantId)
    .executeTakeFirst()
  return row ?? emptyActivity(participantId)
}

/**
 * Whether any delta waits for a rollup. Housekeeping asks first (core/housekeeping.ts): on SQLite the
 * rollup's transaction is a group commit of its own that takes the write lock, and every second an
 * idle server at 1M contributions spent 8-15 ms (wall clock) folding nothing; its main thread's CPU
 * when idle went from 0.16-0.31% of each second to 0.09-0.19% without it.
 */
export async function hasDeltas(db: Db): Promise<boolean> {
  return (await anyDelta(db, {})).length > 0
}

const anyDelta = prepared((db) => db.selectFrom('usage_deltas').select('name').limit(1))
