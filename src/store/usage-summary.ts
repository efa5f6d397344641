import { sql } from 'kysely'
import type { Db } from './database.ts'

/**
 * Reads behind view=usage. Every query here is bounded by participants (capped by the registration
 * capacity) or rooms, or looks counters up by name; none reads contributions, visits or day rows.
 */
export interface ParticipantFigures {
  provenance: string
  participants: number
  paused: number
  contributions: number
  contributing: number
  returning: number
  appreciating: number
  reporting: number
  /** Within the window starting at `since` (a UTC date). */
  recentContributors: number
  recentVisitors: number
  returningVisitors: number
}

const countWhere = (condition: ReturnType<typeof sql>) =>
  sql<number>`coalesce(sum(case when ${condition} then 1 else 0 end), 0)`

/** One pass over participants (bounded by the registration capacity) gives every per-agent figure. */
export async function participantFigures(db: Db, since: string): Promise<ParticipantFigures[]> {
  const rows = await db
    .selectFrom('participants as p')
    .leftJoin('usage_participants as u', 'u.participant_id', 'p.id')
    .select((eb) => [
      'p.provenance',
      eb.fn.countAll<number>().as('participants'),
      countWhere(sql`p.status = 'paused'`).as('paused'),
      sql<number>`coalesce(sum(u.contributions), 0)`.as('contributions'),
      countWhere(sql`u.contributions > 0`).as('contributing'),
      countWhere(sql`u.post_dates >= 2`).as('returning'),
      countWhere(sql`u.appreciations_given > 0`).as('appreciating'),
      countWhere(sql`u.feedback_reports > 0`).as('reporting'),
      countWhere(sql`u.last_post_date >= ${since}`).as('recent_contributors'),
      countWhere(sql`u.last_visit_date >= ${since}`).as('recent_visitors'),
      // The two latest distinct visit dates both fall in the window: visits on at least two dates in it.
      countWhere(sql`u.prev_visit_date >= ${since}`).as('returning_visitors'),
    ])
    .groupBy('p.provenance')
    .execute()
  return rows.map((r) => ({
    provenance: r.provenance,
    participants: Number(r.participants),
    paused: Number(r.paused),
    contributions: Number(r.contributions),
    contributing: Number(r.contributing),
    returning: Number(r.returning),
    appreciating: Number(r.appreciating),
    reporting: Number(r.reporting),
    recentContributors: Number(r.recent_contributors),
    recentVisitors: Number(r.recent_visitors),
    returningVisitors: Number(r.returning_visitors),
  }))
}

export async function modelLabelCount(db: Db): Promise<number> {
  const row = await db
    .selectFrom('participants')
    .select((eb) => eb.fn.count<number>('model').distinct().as('labels'))
    .executeTakeFirst()
  return Number(row?.labels ?? 0)
}

export async function firstRegistration(db: Db): Promise<string | undefined> {
  const row = await db.selectFrom('participants').select('created_at').orderBy('created_at').limit(1).executeTakeFirst()
  return row?.created_at
}

/** The named usage counters (primary-key lookups), as a name -> value map; missing ones are 0. */
export async function counters(db: Db, names: string[]): Promise<Map<string, number>> {
  const rows = await db.selectFrom('usage_counters').select(['name', 'value']).where('name', 'in', names).execute()
  return new Map(rows.map((r) => [r.name, Number(r.value)]))
}

export async function roomFigures(db: Db) {
  const rows = await db.selectFrom('usage_rooms').selectAll().execute()
  return rows.map((r) => ({
    room: r.room,
    contributions: Number(r.contributions),
    contributing_agents: Number(r.contributing_agents),
  }))
}
