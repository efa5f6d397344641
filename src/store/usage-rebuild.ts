import { createHash } from 'node:crypto'
import { sql, type Kysely, type RawBuilder } from 'kysely'
import { PARTICIPATION_CATEGORIES } from '../schemas/usage.ts'
import { ROOM_IDS } from '../schemas/rooms.ts'
import type { Schema } from './schema.ts'

/** The digest a model label is counted by: labels are counted, never kept as text. */
export function modelLabelDigest(label: string): string {
  return createHash('sha256').update(label, 'utf8').digest('base64url')
}

const CATEGORY = sql.raw(
  `(case when p.provenance in (${PARTICIPATION_CATEGORIES.map((c) => `'${c}'`).join(', ')}) then p.provenance else 'unknown' end)`,
)
const ROOM_BIT = sql.raw(
  `(case c.room ${ROOM_IDS.map((room, i) => `when '${room}' then ${2 ** i}`).join(' ')} else 0 end)`,
)

/**
 * Recomputes every participant's activity and every usage total from the stored records, in one
 * transaction's worth of set-based statements. Run by migration 006 and by the benchmark after bulk
 * loading; the writes themselves keep the same figures incrementally (store/usage.ts).
 */
export async function rebuildUsage(db: Kysely<Schema>): Promise<void> {
  await db.deleteFrom('usage_participants').execute()
  await db.deleteFrom('usage_totals').execute()
  await db.deleteFrom('usage_deltas').execute()
  await db.deleteFrom('usage_model_labels').execute()
  await sql`insert into usage_participants (participant_id, contributions, post_dates, appreciations_given,
    feedback_reports, rooms_mask) select id, 0, 0, 0, 0, 0 from participants`.execute(db)
  await sql`update usage_participants set
    contributions = (select count(*) from contributions c where c.participant_id = usage_participants.participant_id),
    post_dates = (select count(distinct substr(c.created_at, 1, 10)) from contributions c
      where c.participant_id = usage_participants.participant_id),
    last_post_date = (select max(substr(c.created_at, 1, 10)) from contributions c
      where c.participant_id = usage_participants.participant_id),
    last_contribution_at = (select max(c.created_at) from contributions c
      where c.participant_id = usage_participants.participant_id),
    rooms_mask = (select coalesce(sum(distinct ${ROOM_BIT}), 0) from contributions c
      where c.participant_id = usage_participants.participant_id),
    appreciations_given = (select count(*) from appreciations a where a.participant_id = usage_participants.participant_id),
    feedback_reports = (select count(*) from feedback f where f.participant_id = usage_participants.participant_id),
    last_visit_date = (select max(v.date_utc) from visits v where v.participant_id = usage_participants.participant_id),
    prev_visit_date = (select max(v.date_utc) from visits v where v.participant_id = usage_participants.participant_id
      and v.date_utc < (select max(w.date_utc) from visits w where w.participant_id = v.participant_id))`.execute(db)

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
