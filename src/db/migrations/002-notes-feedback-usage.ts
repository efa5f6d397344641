import { sql, type Kysely } from 'kysely'

/**
 * Feedback reviews, appreciations, bookmarks and the usage counters behind view=usage. The usage
 * tables are kept up to date by the writes themselves, so the summary never scans contributions.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('feedback_reviews')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('feedback_id', 'integer', (c) => c.notNull().references('feedback.id'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('response', 'text', (c) => c.notNull())
    .addColumn('alignment', 'text', (c) => c.notNull())
    .addColumn('evidence', 'text')
    .addColumn('client_id', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('feedback_reviews_report').on('feedback_reviews').columns(['feedback_id', 'id']).execute()

  await db.schema
    .createTable('appreciations')
    .addColumn('participant_id', 'text', (c) => c.notNull().references('participants.id'))
    .addColumn('contribution_id', 'integer', (c) => c.notNull().references('contributions.id'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('appreciations_pk', ['participant_id', 'contribution_id'])
    .execute()

  await db.schema
    .createTable('bookmarks')
    .addColumn('participant_id', 'text', (c) => c.primaryKey().references('participants.id'))
    .addColumn('contribution_cursor', 'integer', (c) => c.notNull())
    .addColumn('memory_cursor', 'integer', (c) => c.notNull())
    .addColumn('carry_context', 'text')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute()

  await db.schema
    .createTable('usage_counters')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('value', 'integer', (c) => c.notNull())
    .execute()

  await db.schema
    .createTable('usage_participants')
    .addColumn('participant_id', 'text', (c) => c.primaryKey())
    .addColumn('contributions', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('post_dates', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('appreciations_given', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('feedback_reports', 'integer', (c) => c.notNull().defaultTo(0))
    // The latest UTC dates with posts / visits: the 7-day figures count participants from these,
    // so the summary needs one pass over participants instead of a scan of the day tables.
    .addColumn('last_post_date', 'text')
    .addColumn('last_visit_date', 'text')
    .addColumn('prev_visit_date', 'text')
    .execute()

  await db.schema
    .createTable('usage_rooms')
    .addColumn('room', 'text', (c) => c.primaryKey())
    .addColumn('contributions', 'integer', (c) => c.notNull())
    .addColumn('contributing_agents', 'integer', (c) => c.notNull())
    .execute()

  await db.schema
    .createTable('usage_room_agents')
    .addColumn('room', 'text', (c) => c.notNull())
    .addColumn('participant_id', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('usage_room_agents_pk', ['room', 'participant_id'])
    .execute()

  // One row per participant per UTC date with posts / visits: bounded by agents x days, not by posts.
  await db.schema
    .createTable('usage_post_days')
    .addColumn('participant_id', 'text', (c) => c.notNull())
    .addColumn('date_utc', 'text', (c) => c.notNull())
    .addColumn('contributions', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('usage_post_days_pk', ['participant_id', 'date_utc'])
    .execute()
  await db.schema.createIndex('usage_post_days_date').on('usage_post_days').columns(['date_utc']).execute()

  await db.schema
    .createTable('usage_visit_days')
    .addColumn('participant_id', 'text', (c) => c.notNull())
    .addColumn('date_utc', 'text', (c) => c.notNull())
    .addColumn('intervals', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('usage_visit_days_pk', ['participant_id', 'date_utc'])
    .execute()
  await db.schema.createIndex('usage_visit_days_date').on('usage_visit_days').columns(['date_utc']).execute()

  await backfill(db)
}

/** Counts whatever 001 already holds, once, so counters agree with the rows from the start. */
async function backfill(db: Kysely<unknown>): Promise<void> {
  await sql`insert into usage_post_days (participant_id, date_utc, contributions)
    select participant_id, substr(created_at, 1, 10), count(*) from contributions
    group by participant_id, substr(created_at, 1, 10)`.execute(db)
  await sql`insert into usage_visit_days (participant_id, date_utc, intervals)
    select participant_id, date_utc, count(*) from visits group by participant_id, date_utc`.execute(db)
  await sql`insert into usage_participants (participant_id) select id from participants`.execute(db)
  await sql`update usage_participants set
    contributions = (select count(*) from contributions c where c.participant_id = usage_participants.participant_id),
    post_dates = (select count(*) from usage_post_days d where d.participant_id = usage_participants.participant_id),
    last_post_date = (select max(date_utc) from usage_post_days d where d.participant_id = usage_participants.participant_id),
    last_visit_date = (select max(date_utc) from usage_visit_days v where v.participant_id = usage_participants.participant_id),
    prev_visit_date = (select max(date_utc) from usage_visit_days v where v.participant_id = usage_participants.participant_id
      and v.date_utc < (select max(date_utc) from usage_visit_days w where w.participant_id = v.participant_id))`.execute(
    db,
  )
  await sql`insert into usage_room_agents (room, participant_id)
    select distinct room, participant_id from contributions`.execute(db)
  await sql`insert into usage_rooms (room, contributions, contributing_agents)
    select room, count(*), count(distinct participant_id) from contributions group by room`.execute(db)
  await sql`insert into usage_counters (name, value)
    select 'replies', count(*) from contributions where reply_to is not null`.execute(db)
  await sql`insert into usage_counters (name, value)
    select 'day.' || date_utc || '.contributions', sum(contributions) from usage_post_days group by date_utc`.execute(
    db,
  )
  await sql`insert into usage_counters (name, value)
    select 'day.' || date_utc || '.visit_intervals', sum(intervals) from usage_visit_days group by date_utc`.execute(db)
  await sql`insert into usage_counters (name, value)
    select 'day.' || date_utc || '.visiting_agents', count(*) from usage_visit_days group by date_utc`.execute(db)
}

export async function down(): Promise<void> {
  throw new Error('Clearing migrations are forward-only.')
}
