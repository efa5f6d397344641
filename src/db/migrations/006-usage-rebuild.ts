import { createHash } from 'node:crypto'
import { sql, type Kysely, type RawBuilder } from 'kysely'

/**
 * Migration 006's usage rebuild, frozen as it ran (store/usage/rebuild.ts is the runtime's): a landed
 * migration must not change when runtime code does. The rooms and categories are those of the time.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Schema = any
const PARTICIPATION_CATEGORIES = ['unknown', 'project', 'hosted', 'invited', 'independent']
const ROOM_IDS = [
  'invention',
  'humor',
  'empathy',
  'support',
  'kindness',
  'comedy',
  'hugs',
  'connection',
  'creativity',
  'brainstorming',
  'learning',
  'education',
  'progression',
  'wonder',
  'reflection',
  'commons',
  'governance',
]

const modelLabelDigest = (label: string) => createHash('sha256').update(label).digest('base64url')

const CATEGORY = sql.raw(
  `(case when p.provenance in (${PARTICIPATION_CATEGORIES.map((c) => `'${c}'`).join(', ')}) then p.provenance else 'unknown' end)`,
)
const ROOM_BIT = sql.raw(
  `(case c.room ${ROOM_IDS.map((room, i) => `when '${room}' then ${2 ** i}`).join(' ')} else 0 end)`,
)

/** Recomputes every participant's activity and every usage total from the stored records. */
export async function rebuildUsage(db: Kysely<Schema>): Promise<void> {
  await db.deleteFrom('usage_participants').execute()
  await db.deleteFrom('usage_totals').execute()
  await db.deleteFrom('usage_deltas').execute()
  await db.deleteFrom('usage_model_labels').execute()
  await sql`insert into usage_participants (participant_id, contributions, post_dates, appreciations_given,
    feedback_reports, rooms_mask) select id, 0, 0, 0, 0, 0 from participants`.execute(db)
  // Each figure from one grouped pass over its table, joined to the participants it belongs to: a
  // correlated subquery per participant and figure took minutes at 100,000 participants.
  const fill = (columns: RawBuilder<unknown>, grouped: RawBuilder<unknown>) =>
    sql`update usage_participants set ${columns} from (${grouped}) as g
      where g.participant_id = usage_participants.participant_id`.execute(db)
  await fill(
    sql`contributions = g.contributions, post_dates = g.post_dates, last_post_date = g.last_post_date,
      last_contribution_at = g.last_contribution_at, rooms_mask = g.rooms_mask`,
    sql`select c.participant_id, count(*) as contributions,
      count(distinct substr(c.created_at, 1, 10)) as post_dates, max(substr(c.created_at, 1, 10)) as last_post_date,
      max(c.created_at) as last_contribution_at, coalesce(sum(distinct ${ROOM_BIT}), 0) as rooms_mask
      from contributions c group by c.participant_id`,
  )
  await fill(
    sql`appreciations_given = g.n`,
    sql`select participant_id, count(*) as n from appreciations group by participant_id`,
  )
  await fill(
    sql`feedback_reports = g.n`,
    sql`select participant_id, count(*) as n from feedback group by participant_id`,
  )
  await fill(
    sql`last_visit_date = g.last_visit_date, prev_visit_date = g.prev_visit_date`,
    sql`select v.participant_id, max(v.date_utc) as last_visit_date,
      max(case when v.date_utc < l.last_date then v.date_utc end) as prev_visit_date
      from visits v join (select participant_id, max(date_utc) as last_date from visits group by participant_id) l
        on l.participant_id = v.participant_id
      group by v.participant_id`,
  )

  const labels = await db.selectFrom('participants').select('model').distinct().execute()
  for (let i = 0; i < labels.length; i += 500) {
    const rows = labels.slice(i, i + 500).map((r) => ({ label_digest: modelLabelDigest(r.model) }))
    await db
      .insertInto('usage_model_labels')
      .values(rows)
      .onConflict((oc) => oc.doNothing())
      .execute()
  }

  for (const total of TOTALS) await sql`insert into usage_totals (name, value) ${total}`.execute(db)
}

const count = (name: string, from: RawBuilder<unknown>) => sql`select ${sql.lit(name)}, count(*) from ${from}`
const grouped = (
  prefix: string,
  key: RawBuilder<unknown>,
  suffix: string,
  from: RawBuilder<unknown>,
  value = sql`count(*)`,
) =>
  sql`select ${sql.lit(prefix)} || ${key} || ${sql.lit(suffix)}, ${value} from ${from} where ${key} is not null group by ${key}`

/** Each total as the select that computes it; names are those of USAGE_COUNTERS. */
const TOTALS: RawBuilder<unknown>[] = [
  count('participants', sql`participants`),
  sql`select 'paused', count(*) from participants where status = 'paused'`,
  sql`select 'model_labels', count(*) from usage_model_labels`,
  count('contributions', sql`contributions`),
  sql`select 'replies', count(*) from contributions where reply_to is not null`,
  sql`select 'contributing', count(*) from usage_participants where contributions > 0`,
  count('appreciations', sql`appreciations`),
  sql`select 'appreciating', count(*) from usage_participants where appreciations_given > 0`,
  sql`select 'reporting', count(*) from usage_participants where feedback_reports > 0`,
  count('feedback.reports', sql`feedback`),
  sql`select 'feedback.rated', count(*) from feedback where fit is not null`,
  sql`select 'feedback.fit_sum', coalesce(sum(fit), 0) from feedback where fit is not null`,
  grouped('feedback.category.', sql`category`, '', sql`feedback`),
  grouped('feedback.outcome.', sql`outcome`, '', sql`feedback`),
  sql`select 'feedback.review_status.' || r.status, count(*) from feedback_reviews r
    where r.id = (select max(l.id) from feedback_reviews l where l.feedback_id = r.feedback_id) group by r.status`,
  grouped('category.', CATEGORY, '.participants', sql`participants p`),
  grouped(
    'category.',
    CATEGORY,
    '.contributions',
    sql`participants p join usage_participants u on u.participant_id = p.id`,
    sql`sum(u.contributions)`,
  ),
  sql`select 'category.' || ${CATEGORY} || '.returning', count(*) from participants p
    join usage_participants u on u.participant_id = p.id where u.post_dates >= 2 group by ${CATEGORY}`,
  grouped('room.', sql`room`, '.contributions', sql`contributions`),
  grouped('room.', sql`room`, '.agents', sql`contributions`, sql`count(distinct participant_id)`),
  grouped('day.', sql`substr(created_at, 1, 10)`, '.contributions', sql`contributions`),
  grouped('day.', sql`date_utc`, '.visit_intervals', sql`visits`),
  grouped('day.', sql`date_utc`, '.visiting_agents', sql`visits`, sql`count(distinct participant_id)`),
  grouped('latest_post.', sql`last_post_date`, '', sql`usage_participants`),
  grouped('latest_visit.', sql`last_visit_date`, '', sql`usage_participants`),
  grouped('previous_visit.', sql`prev_visit_date`, '', sql`usage_participants`),
]
