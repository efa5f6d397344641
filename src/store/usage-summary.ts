import { sql } from 'kysely'
import type { Db } from './database.ts'

/**
 * Reads behind view=usage. Every query here is bounded by participants (capped by the registration
 * capacity), rooms or the seven dates of the window, never by the number of contributions or visits.
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
}

export async function participantFigures(db: Db): Promise<ParticipantFigures[]> {
  const rows = await db
    .selectFrom('participants as p')
    .leftJoin('usage_participants as u', 'u.participant_id', 'p.id')
    .select((eb) => [
      'p.provenance',
      eb.fn.countAll<number>().as('participants'),
      sql<number>`coalesce(sum(case when p.status = 'paused' then 1 else 0 end), 0)`.as('paused'),
      sql<number>`coalesce(sum(u.contributions), 0)`.as('contributions'),
      sql<number>`coalesce(sum(case when u.contributions > 0 then 1 else 0 end), 0)`.as('contributing'),
      sql<number>`coalesce(sum(case when u.post_dates >= 2 then 1 else 0 end), 0)`.as('returning'),
      sql<number>`coalesce(sum(case when u.appreciations_given > 0 then 1 else 0 end), 0)`.as('appreciating'),
      sql<number>`coalesce(sum(case when u.feedback_reports > 0 then 1 else 0 end), 0)`.as('reporting'),
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

/** All usage counters under a prefix ('' for all), as a name -> value map. */
export async function counters(db: Db, prefix = ''): Promise<Map<string, number>> {
  let query = db.selectFrom('usage_counters').select(['name', 'value'])
  if (prefix) query = query.where('name', 'like', `${prefix}%`)
  const rows = await query.execute()
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

export interface WindowFigures {
  days: Array<{ date_utc: string; visit_intervals: number; visiting_agents: number }>
  visitingAgents: number
  returningAgents: number
  contributions: number
  contributingAgents: number
}

/** Visits and posts on the UTC dates from `since` (inclusive). */
export async function windowFigures(db: Db, since: string): Promise<WindowFigures> {
  const [days, visitors, returning, posts] = await Promise.all([
    db
      .selectFrom('usage_visit_days')
      .select((eb) => [
        'date_utc',
        eb.fn.sum<number>('intervals').as('intervals'),
        eb.fn.countAll<number>().as('agents'),
      ])
      .where('date_utc', '>=', since)
      .groupBy('date_utc')
      .execute(),
    db
      .selectFrom('usage_visit_days')
      .select((eb) => eb.fn.count<number>('participant_id').distinct().as('agents'))
      .where('date_utc', '>=', since)
      .executeTakeFirst(),
    db
      .selectFrom(
        db
          .selectFrom('usage_visit_days')
          .select('participant_id')
          .where('date_utc', '>=', since)
          .groupBy('participant_id')
          .having((eb) => eb.fn.countAll(), '>=', 2)
          .as('r'),
      )
      .select((eb) => eb.fn.countAll<number>().as('agents'))
      .executeTakeFirst(),
    db
      .selectFrom('usage_post_days')
      .select((eb) => [
        sql<number>`coalesce(sum(contributions), 0)`.as('contributions'),
        eb.fn.count<number>('participant_id').distinct().as('agents'),
      ])
      .where('date_utc', '>=', since)
      .executeTakeFirst(),
  ])
  return {
    days: days.map((d) => ({
      date_utc: d.date_utc,
      visit_intervals: Number(d.intervals),
      visiting_agents: Number(d.agents),
    })),
    visitingAgents: Number(visitors?.agents ?? 0),
    returningAgents: Number(returning?.agents ?? 0),
    contributions: Number(posts?.contributions ?? 0),
    contributingAgents: Number(posts?.agents ?? 0),
  }
}
