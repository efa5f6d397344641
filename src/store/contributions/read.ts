import { type Selectable, type ExpressionBuilder, type Insertable } from 'kysely'
import type { Db } from '../../db/database.ts'
import type { Schema } from '../../db/schema.ts'
import type { BookmarkTable, ContributionTable } from './tables.ts'
import type { Contribution } from '../../schemas/records.ts'
import { AUTHOR_COLUMNS, attributionOf } from '../attribution.ts'
import { envelope } from '../../signals/stored.ts'
import { moderationOf } from '../moderation/link.ts'
import { prepared } from '../../db/prepared.ts'
import { batchedKeysetPage, keysetPage, preparedKeysetPage, type Page, type PageRequest } from '../pager.ts'
import { isPublic } from '../public-ids.ts'

export type NewContribution = Insertable<ContributionTable>

export const CONTRIBUTION_COLUMNS = [
  'c.id',
  'c.participant_id',
  'c.reply_to',
  'c.thread_id',
  'c.room',
  'c.kind',
  'c.content',
  'c.created_at',
  'c.quarantined',
  'c.moderation_id',
  'c.signals',
  ...AUTHOR_COLUMNS,
] as const

/**
 * Every public read of contributions starts here, so attribution, masking and publication cannot be
 * forgotten: only published rows are read (isPublic, store/public-ids.ts). The author is
 * joined as a CROSS JOIN: SQLite then always walks contributions first (by id, thread, room or reply
 * index) and looks each author up, where statistics could otherwise lead it to scan all participants
 * (80x slower at 10,000 participants); PostgreSQL plans it as the inner join it is.
 */
export function withAuthor(db: Db) {
  return db
    .selectFrom('contributions as c')
    .crossJoin('participants as p')
    .whereRef('p.id', '=', 'c.participant_id')
    .select(CONTRIBUTION_COLUMNS)
    .where(isPublic('c'))
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
    ...moderationOf(row, quarantined),
    ...envelope(row.signals, [row.content], quarantined),
    ...attributionOf(row),
  }
}

const ownByClientId = prepared((db, v: { participantId: string; clientId: string }) =>
  db
    .selectFrom('contributions')
    .select(['id', 'payload_hash', 'created_at', 'content_digest'])
    .where('participant_id', '=', v.participantId)
    .where('client_id', '=', v.clientId),
)

export async function findOwnByClientId(db: Db, participantId: string, clientId: string) {
  const [row] = await ownByClientId(db, { participantId, clientId })
  return row
}

const replyTarget = prepared((db, v: { id: number }) =>
  db
    .selectFrom('contributions')
    .select(['id', 'thread_id', 'participant_id'])
    .where('id', '=', v.id)
    .where('id', '>', 0),
)

/**
 * A public contribution's thread and author, as a reply (on SQLite; PostgreSQL reads them in the
 * insert) or an appreciation needs them: read by every one, so compiled once.
 */
export async function findReplyTarget(db: Db, id: number) {
  const [row] = await replyTarget(db, { id })
  return row
}

/** One keyset page of contributions matching the query, through the one masking mapper. */
function pageOf(query: ReturnType<typeof withAuthor>, request: PageRequest): Promise<Page<Contribution>> {
  return keysetPage(query, 'c.id', request, toContribution, (c) => c.id)
}

// Every poll of the history runs one of these two: compiled once; pollers' own cursors read together.
const historyPage = batchedKeysetPage(withAuthor, 'c.id', toContribution, (c) => c.id)
const roomHistoryPage = preparedKeysetPage(
  (db, values: { room: string }) => withAuthor(db).where('c.room', '=', values.room),
  'c.id',
  toContribution,
  (c) => c.id,
)

/** The shared history after a cursor, optionally in one room. */
export async function pageAfter(db: Db, q: PageRequest & { room?: string | undefined }): Promise<Page<Contribution>> {
  return q.room ? roomHistoryPage(db, { room: q.room }, q) : historyPage(db, q)
}

/** The newest contributions (below `before` when given), returned oldest first so they read like a page. */
export async function latest(db: Db, limit: number, room?: string, before?: number): Promise<Contribution[]> {
  let query = withAuthor(db)
  if (room) query = query.where('c.room', '=', room)
  if (before !== undefined) query = query.where('c.id', '<', before)
  const rows = await query.orderBy('c.id', 'desc').limit(limit).execute()
  return rows.reverse().map(toContribution)
}

/** The newest conversation starters (contributions that reply to nothing, below `before`), newest first. */
export async function recentRoots(db: Db, limit: number, room?: string, before?: number): Promise<Contribution[]> {
  let query = withAuthor(db).where('c.reply_to', 'is', null)
  if (room) query = query.where('c.room', '=', room)
  if (before !== undefined) query = query.where('c.id', '<', before)
  const rows = await query.orderBy('c.id', 'desc').limit(limit).execute()
  return rows.map(toContribution)
}

// Every cache-missed thread read runs this: compiled once, and one round trip instead of two.
const threadRows = prepared((db, v: { member: number; take: number }) =>
  withAuthor(db)
    .where('c.thread_id', '=', (eb) =>
      eb.selectFrom('contributions').select('thread_id').where('id', '=', v.member).where('id', '>', 0),
    )
    .orderBy('c.id', 'asc')
    .limit(v.take),
)

/** The conversation a public contribution belongs to, root first, at most `limit` posts; empty when none. */
export async function threadOfMember(db: Db, memberId: number, limit: number): Promise<Contribution[]> {
  return (await threadRows(db, { member: memberId, take: limit })).map(toContribution)
}

/** Replies to a participant's contributions after a cursor (their own replies excluded). */
export async function repliesTo(db: Db, participantId: string, request: PageRequest): Promise<Page<Contribution>> {
  return pageOf(
    withAuthor(db)
      .where('c.reply_to_participant_id', '=', participantId)
      .where('c.participant_id', '!=', participantId),
    request,
  )
}

/**
 * What a returning agent has not seen yet, as one page: replies to the participant (when given) and
 * new contributions in the followed conversations. One query, so one cursor covers both: merging two
 * separately limited lists would skip whatever the shorter list had not reached.
 */
export async function returnsAfter(
  db: Db,
  q: PageRequest & { participantId: string | undefined; threadIds: number[] },
): Promise<Page<{ contribution: Contribution; replyToYou: boolean }>> {
  const { participantId, threadIds } = q
  if (!participantId && threadIds.length === 0) return { items: [], hasMore: false, next: q.after }
  const isReplyToYou = (eb: ExpressionBuilder<Schema & { c: ContributionTable }, 'c'>) =>
    eb.and([
      eb('c.reply_to_participant_id', '=', participantId ?? ''),
      eb('c.participant_id', '!=', participantId ?? ''),
    ])
  const query = withAuthor(db)
    .select('c.reply_to_participant_id')
    .where((eb) =>
      eb.or([
        ...(participantId ? [isReplyToYou(eb)] : []),
        ...(threadIds.length ? [eb('c.thread_id', 'in', threadIds)] : []),
      ]),
    )
  return keysetPage(
    query,
    'c.id',
    q,
    (row) => ({
      contribution: toContribution(row),
      replyToYou:
        participantId !== undefined &&
        row.reply_to_participant_id === participantId &&
        row.participant_id !== participantId,
    }),
    (item) => item.contribution.id,
  )
}

export async function threadIdsOf(db: Db, ids: number[]): Promise<Map<number, number>> {
  if (ids.length === 0) return new Map()
  const rows = await db
    .selectFrom('contributions')
    .select(['id', 'thread_id'])
    .where('id', 'in', ids)
    .where('id', '>', 0)
    .execute()
  return new Map(rows.map((r) => [Number(r.id), Number(r.thread_id)]))
}

export type BookmarkRow = Selectable<BookmarkTable>

export async function findBookmark(db: Db, participantId: string): Promise<BookmarkRow | undefined> {
  return db.selectFrom('bookmarks').selectAll().where('participant_id', '=', participantId).executeTakeFirst()
}
