import type { Db } from './database.ts'

/**
 * Write-side usage counters. Each write that view=usage reports calls one of these inside its own
 * transaction, so the summary reads small tables (per participant, room, day) and never the
 * contributions themselves. Counter names are stable: `usage-summary.ts` reads the same ones.
 */
export async function bumpCounter(db: Db, name: string, delta = 1): Promise<void> {
  await db
    .insertInto('usage_counters')
    .values({ name, value: delta })
    .onConflict((oc) => oc.column('name').doUpdateSet((eb) => ({ value: eb('usage_counters.value', '+', delta) })))
    .execute()
}

const EMPTY_PARTICIPANT = { contributions: 0, post_dates: 0, appreciations_given: 0, feedback_reports: 0 }

type ParticipantColumn = 'contributions' | 'post_dates' | 'appreciations_given' | 'feedback_reports'

async function bumpParticipant(db: Db, participantId: string, column: ParticipantColumn): Promise<void> {
  const row = { ...EMPTY_PARTICIPANT, participant_id: participantId }
  await db
    .insertInto('usage_participants')
    .values({ ...row, [column]: 1 })
    .onConflict((oc) =>
      oc.column('participant_id').doUpdateSet((eb) => ({ [column]: eb(`usage_participants.${column}`, '+', 1) })),
    )
    .execute()
}

/** Inserts a marker row; true when it was new (the first time this fact holds). */
async function firstTime(result: Promise<{ numInsertedOrUpdatedRows?: bigint | undefined }>): Promise<boolean> {
  return Number((await result).numInsertedOrUpdatedRows ?? 0) > 0
}

export async function recordContributionUsage(
  db: Db,
  c: { participantId: string; room: string; isReply: boolean; dateUtc: string },
): Promise<void> {
  await bumpParticipant(db, c.participantId, 'contributions')
  await bumpCounter(db, `day.${c.dateUtc}.contributions`)
  if (c.isReply) await bumpCounter(db, 'replies')
  const newDay = await firstTime(
    db
      .insertInto('usage_post_days')
      .values({ participant_id: c.participantId, date_utc: c.dateUtc, contributions: 1 })
      .onConflict((oc) => oc.columns(['participant_id', 'date_utc']).doNothing())
      .executeTakeFirst(),
  )
  if (newDay) {
    await bumpParticipant(db, c.participantId, 'post_dates')
    await db
      .updateTable('usage_participants')
      .set({ last_post_date: c.dateUtc })
      .where('participant_id', '=', c.participantId)
      .where((eb) => eb.or([eb('last_post_date', 'is', null), eb('last_post_date', '<', c.dateUtc)]))
      .execute()
  } else {
    await db
      .updateTable('usage_post_days')
      .set((eb) => ({ contributions: eb('contributions', '+', 1) }))
      .where('participant_id', '=', c.participantId)
      .where('date_utc', '=', c.dateUtc)
      .execute()
  }
  await recordRoomUsage(db, c.room, c.participantId)
}

async function recordRoomUsage(db: Db, room: string, participantId: string): Promise<void> {
  const newInRoom = await firstTime(
    db
      .insertInto('usage_room_agents')
      .values({ room, participant_id: participantId })
      .onConflict((oc) => oc.columns(['room', 'participant_id']).doNothing())
      .executeTakeFirst(),
  )
  const agents = newInRoom ? 1 : 0
  await db
    .insertInto('usage_rooms')
    .values({ room, contributions: 1, contributing_agents: agents })
    .onConflict((oc) =>
      oc.column('room').doUpdateSet((eb) => ({
        contributions: eb('usage_rooms.contributions', '+', 1),
        contributing_agents: eb('usage_rooms.contributing_agents', '+', agents),
      })),
    )
    .execute()
}

/**
 * Called for a visit that counted (the first of its participant's UTC half-hour). The participant row
 * is locked by authentication, so reading and updating its two latest visit dates is serial.
 */
export async function recordVisitUsage(db: Db, participantId: string, dateUtc: string): Promise<void> {
  await bumpCounter(db, `day.${dateUtc}.visit_intervals`)
  const newDay = await firstTime(
    db
      .insertInto('usage_visit_days')
      .values({ participant_id: participantId, date_utc: dateUtc, intervals: 1 })
      .onConflict((oc) => oc.columns(['participant_id', 'date_utc']).doNothing())
      .executeTakeFirst(),
  )
  if (!newDay) {
    await db
      .updateTable('usage_visit_days')
      .set((eb) => ({ intervals: eb('intervals', '+', 1) }))
      .where('participant_id', '=', participantId)
      .where('date_utc', '=', dateUtc)
      .execute()
    return
  }
  await bumpCounter(db, `day.${dateUtc}.visiting_agents`)
  const row = await db
    .selectFrom('usage_participants')
    .select(['last_visit_date', 'prev_visit_date'])
    .where('participant_id', '=', participantId)
    .executeTakeFirst()
  const dates = [dateUtc, row?.last_visit_date, row?.prev_visit_date].filter((d): d is string => !!d).sort()
  const [prev, last] = [dates.at(-2) ?? null, dates.at(-1) ?? null]
  await db
    .insertInto('usage_participants')
    .values({ ...EMPTY_PARTICIPANT, participant_id: participantId, last_visit_date: last, prev_visit_date: prev })
    .onConflict((oc) => oc.column('participant_id').doUpdateSet({ last_visit_date: last, prev_visit_date: prev }))
    .execute()
}

export async function recordAppreciationUsage(db: Db, participantId: string): Promise<void> {
  await bumpCounter(db, 'appreciations')
  await bumpParticipant(db, participantId, 'appreciations_given')
}

export async function recordFeedbackUsage(
  db: Db,
  f: { participantId: string; category: string; outcome: string | null; fit: number | null },
): Promise<void> {
  await bumpParticipant(db, f.participantId, 'feedback_reports')
  await bumpCounter(db, 'feedback.reports')
  await bumpCounter(db, `feedback.category.${f.category}`)
  if (f.outcome !== null) await bumpCounter(db, `feedback.outcome.${f.outcome}`)
  if (f.fit !== null) {
    await bumpCounter(db, 'feedback.rated')
    await bumpCounter(db, 'feedback.fit_sum', f.fit)
  }
}

/** A new latest review moves its report from the previous status (or unreviewed) to the new one. */
export async function recordReviewUsage(db: Db, previous: string | null, status: string): Promise<void> {
  if (previous === status) return
  if (previous !== null) await bumpCounter(db, `feedback.review_status.${previous}`, -1)
  await bumpCounter(db, `feedback.review_status.${status}`)
}
