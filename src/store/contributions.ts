import type { Insertable } from 'kysely'
import type { Contribution } from '../schemas/records.ts'
import type { Db } from './database.ts'
import type { ContributionTable } from './schema.ts'
import { AUTHOR_COLUMNS, attributionOf } from './attribution.ts'

export type NewContribution = Insertable<ContributionTable>

const COLUMNS = [
  'c.id',
  'c.participant_id',
  'c.reply_to',
  'c.thread_id',
  'c.room',
  'c.kind',
  'c.content',
  'c.created_at',
  'c.quarantined',
  ...AUTHOR_COLUMNS,
] as const

/** Every public read of contributions starts here, so attribution and masking cannot be forgotten. */
function withAuthor(db: Db) {
  return db.selectFrom('contributions as c').innerJoin('participants as p', 'p.id', 'c.participant_id').select(COLUMNS)
}

type Row = Awaited<ReturnType<ReturnType<typeof withAuthor>['executeTakeFirstOrThrow']>>

/** The one place contribution rows become public records: quarantined text never leaves it. */
export function toContribution(row: Row): Contribution {
  const quarantined = Number(row.quarantined) === 1
  return {
    id: Number(row.id),
    reply_to: row.reply_to === null ? null : Number(row.reply_to),
    thread_id: Number(row.thread_id),
    room: row.room,
    kind: row.kind,
    content: quarantined ? null : row.content,
    created_at: row.created_at,
    quarantined,
    ...attributionOf(row),
  }
}

export async function insertContribution(db: Db, row: NewContribution): Promise<void> {
  await db.insertInto('contributions').values(row).execute()
}

export async function findOwnByClientId(db: Db, participantId: string, clientId: string) {
  return db
    .selectFrom('contributions')
    .select(['id', 'room', 'kind', 'content', 'reply_to'])
    .where('participant_id', '=', participantId)
    .where('client_id', '=', clientId)
    .executeTakeFirst()
}

/** The fields a reply needs from its parent. */
export async function findReplyTarget(db: Db, id: number) {
  return db
    .selectFrom('contributions')
    .select(['id', 'thread_id', 'participant_id'])
    .where('id', '=', id)
    .executeTakeFirst()
}

export async function findContribution(db: Db, id: number): Promise<Contribution | undefined> {
  const row = await withAuthor(db).where('c.id', '=', id).executeTakeFirst()
  return row && toContribution(row)
}

export interface PageQuery {
  after: number
  limit: number
  room?: string | undefined
}

/** Ascending ids after a cursor: a keyset page, never OFFSET. One extra row tells has_more. */
export async function pageAfter(db: Db, q: PageQuery): Promise<{ items: Contribution[]; hasMore: boolean }> {
  let query = withAuthor(db).where('c.id', '>', q.after)
  if (q.room) query = query.where('c.room', '=', q.room)
  const rows = await query
    .orderBy('c.id', 'asc')
    .limit(q.limit + 1)
    .execute()
  return { items: rows.slice(0, q.limit).map(toContribution), hasMore: rows.length > q.limit }
}

/** The newest contributions, returned oldest first so they read like a page. */
export async function latest(db: Db, limit: number, room?: string): Promise<Contribution[]> {
  let query = withAuthor(db)
  if (room) query = query.where('c.room', '=', room)
  const rows = await query.orderBy('c.id', 'desc').limit(limit).execute()
  return rows.reverse().map(toContribution)
}

/** The newest conversation starters (contributions that reply to nothing), newest first. */
export async function recentRoots(db: Db, limit: number, room?: string): Promise<Contribution[]> {
  let query = withAuthor(db).where('c.reply_to', 'is', null)
  if (room) query = query.where('c.room', '=', room)
  const rows = await query.orderBy('c.id', 'desc').limit(limit).execute()
  return rows.map(toContribution)
}

export async function threadOf(db: Db, threadId: number, limit: number): Promise<Contribution[]> {
  const rows = await withAuthor(db).where('c.thread_id', '=', threadId).orderBy('c.id', 'asc').limit(limit).execute()
  return rows.map(toContribution)
}

/** Replies to a participant's contributions after a cursor (their own replies excluded). */
export async function repliesTo(db: Db, participantId: string, after: number, limit: number): Promise<Contribution[]> {
  const rows = await withAuthor(db)
    .where('c.reply_to_participant_id', '=', participantId)
    .where('c.participant_id', '!=', participantId)
    .where('c.id', '>', after)
    .orderBy('c.id', 'asc')
    .limit(limit)
    .execute()
  return rows.map(toContribution)
}

/** New contributions in the given conversations after a cursor. */
export async function threadActivity(
  db: Db,
  threadIds: number[],
  after: number,
  limit: number,
): Promise<Contribution[]> {
  if (threadIds.length === 0) return []
  const rows = await withAuthor(db)
    .where('c.thread_id', 'in', threadIds)
    .where('c.id', '>', after)
    .orderBy('c.id', 'asc')
    .limit(limit)
    .execute()
  return rows.map(toContribution)
}

export async function threadIdsOf(db: Db, ids: number[]): Promise<Map<number, number>> {
  if (ids.length === 0) return new Map()
  const rows = await db.selectFrom('contributions').select(['id', 'thread_id']).where('id', 'in', ids).execute()
  return new Map(rows.map((r) => [Number(r.id), Number(r.thread_id)]))
}

export async function lastContributionId(db: Db): Promise<number> {
  const row = await db.selectFrom('contributions').select('id').orderBy('id', 'desc').limit(1).executeTakeFirst()
  return row ? Number(row.id) : 0
}
