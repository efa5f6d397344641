import { sql, type ExpressionBuilder, type Insertable } from 'kysely'
import type { Contribution } from '../schemas/records.ts'
import type { Db } from '../db/database.ts'
import type { ContributionTable, Schema } from '../db/schema.ts'
import { AUTHOR_COLUMNS, attributionOf } from './attribution.ts'
import { envelope } from '../signals/stored.ts'
import { moderationOf } from './moderation-link.ts'
import { prepared, type WriteOrder } from '../db/prepared.ts'
import { batchedKeysetPage, keysetPage, preparedKeysetPage, type Page, type PageRequest } from './pager.ts'
import { allocateId, isPublic, PROVISIONAL_ID } from './public-ids.ts'
import { drawnId, type DrawnId } from './publication.ts'
import { isPostgres } from '../db/dialect.ts'
import { deltaRows, POST_ACTIVITY_COLUMNS, saveUsage, type PostActivity, type PostUsage } from './usage.ts'

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

// Every contribution passes through these two: compiled once (db/prepared.ts).
const INSERTED_COLUMNS = [
  'participant_id',
  'reply_to',
  'thread_id',
  'reply_to_participant_id',
  'room',
  'kind',
  'content',
  'client_id',
  'created_at',
  'quarantined',
  'payload_hash',
  'signals',
  'content_digest',
] as const satisfies ReadonlyArray<keyof NewContribution>
/**
 * A new post: every column but its id, which the insert allocates (store/public-ids.ts), and what
 * its parent decides (its thread, whom it replies to), which the insert reads with the parent. Every
 * column is required, even the nullable ones: a prepared insert binds each, where Kysely skipped an
 * absent one.
 */
export type NewPostRow = Required<
  Pick<NewContribution, Exclude<(typeof INSERTED_COLUMNS)[number], 'thread_id' | 'reply_to_participant_id'>>
>

/** What inserting a post came to: its id, or why nothing was written. */
export type PostInsertion = { id: DrawnId } | 'client_id_taken' | 'no_reply_target'

const insertPublic = prepared(
  (db, row: NewPostRow & { id: number; thread_id: number; reply_to_participant_id: string | null }) =>
    db.insertInto('contributions').values({ ...row, provisional_id: null }),
  ['id', ...INSERTED_COLUMNS],
)
type PostWithUsage = NewPostRow & PostActivity & { delta_names: string[]; delta_values: number[] }
/**
 * PostgreSQL: a post, its parent's look-up and its usage in one round trip. A reply is inserted only
 * under a public parent, whose thread and author it takes; the provisional id is drawn in the insert,
 * a root's thread_id from it; a client_id the participant already used inserts nothing (the caller
 * then answers with the earlier post), and the activity update and the counter deltas run only when
 * the post was inserted. Values selected (not VALUES) are typed by their casts, not by the columns.
 * It always answers one row: the new id (null when nothing was inserted), whether the parent was
 * found.
 */
const insertProvisional = prepared((db, row: PostWithUsage) =>
  db
    .with('target', (qc) =>
      qc
        .selectFrom('contributions')
        .select(['thread_id', 'participant_id'])
        .where('id', '=', row.reply_to)
        .where('id', '>', 0),
    )
    .with('allocated', (qc) =>
      qc
        .selectNoFrom(PROVISIONAL_ID.as('id'))
        .where((eb) =>
          eb.or([
            eb(eb.cast(eb.val(row.reply_to), 'bigint'), 'is', null),
            eb.exists(eb.selectFrom('target').select('thread_id')),
          ]),
        ),
    )
    .with('inserted', (qc) =>
      qc
        .insertInto('contributions')
        .columns(['id', 'provisional_id', ...INSERTED_COLUMNS])
        .expression((outer) =>
          outer
            .selectFrom('allocated')
            .select((eb) => [
              eb.ref('allocated.id').as('id'),
              eb.ref('allocated.id').as('provisional_id'),
              eb.cast(eb.val(row.participant_id), 'text').as('participant_id'),
              eb.cast(eb.val(row.reply_to), 'bigint').as('reply_to'),
              eb.fn
                .coalesce(eb.selectFrom('target').select('target.thread_id'), eb.ref('allocated.id'))
                .as('thread_id'),
              eb.selectFrom('target').select('target.participant_id').as('reply_to_participant_id'),
              eb.cast(eb.val(row.room), 'text').as('room'),
              eb.cast(eb.val(row.kind), 'text').as('kind'),
              eb.cast(eb.val(row.content), 'text').as('content'),
              eb.cast(eb.val(row.client_id), 'text').as('client_id'),
              eb.cast(eb.val(row.created_at), 'text').as('created_at'),
              eb.cast(eb.val(row.quarantined), 'integer').as('quarantined'),
              eb.cast(eb.val(row.payload_hash), 'text').as('payload_hash'),
              eb.cast(eb.val(row.signals), 'text').as('signals'),
              eb.cast(eb.val(row.content_digest), 'text').as('content_digest'),
            ]),
        )
        .onConflict((oc) => oc.columns(['participant_id', 'client_id']).doNothing())
        .returning('id'),
    )
    .with('activity', (qc) =>
      qc
        .updateTable('usage_participants')
        .set(Object.fromEntries(POST_ACTIVITY_COLUMNS.map((column) => [column, row[column]])) as PostActivity)
        .where('participant_id', '=', row.participant_id)
        .where(({ exists, selectFrom }) => exists(selectFrom('inserted').select('id'))),
    )
    .with('deltas', (qc) =>
      qc
        .insertInto('usage_deltas')
        .columns(['name', 'delta'])
        .expression(
          sql`select * from unnest(${row.delta_names}::text[], ${row.delta_values}::bigint[])
              where exists (select from inserted)`,
        ),
    )
    .selectNoFrom((eb) => [
      eb.selectFrom('inserted').select('inserted.id').as('id'),
      eb.exists(eb.selectFrom('target').select('target.thread_id')).as('found'),
    ]),
)
const ownByClientId = prepared((db, v: { participantId: string; clientId: string }) =>
  db
    .selectFrom('contributions')
    .select(['id', 'payload_hash', 'created_at', 'content_digest'])
    .where('participant_id', '=', v.participantId)
    .where('client_id', '=', v.clientId),
)

/**
 * Inserts a post with an id from the one allocator (store/public-ids.ts) and saves its author's usage
 * with it. Nothing is written when the post replies to no public contribution, or when its author
 * already used its client_id (core/idempotency.ts decides what that earlier post means); the parent
 * is checked first.
 */
export async function insertContribution(
  db: Db,
  row: NewPostRow,
  usage: PostUsage,
  write: WriteOrder = {},
): Promise<PostInsertion> {
  if (isPostgres(db)) {
    const deltas = deltaRows(usage.deltas)
    const [answer] = await insertProvisional(
      db,
      {
        ...row,
        ...usage.changes,
        delta_names: deltas.map((d) => d.name),
        delta_values: deltas.map((d) => d.delta),
      },
      write,
    )
    if (!answer) throw new Error("a post's insert answers one row")
    if (row.reply_to !== null && !answer.found) return 'no_reply_target'
    return answer.id == null ? 'client_id_taken' : { id: drawnId(Number(answer.id)) }
  }
  // SQLite: looked up first, since an id once drawn from the counter must be used (ids stay dense).
  const target = row.reply_to === null ? undefined : await findReplyTarget(db, row.reply_to)
  if (row.reply_to !== null && !target) return 'no_reply_target'
  if (await findOwnByClientId(db, row.participant_id, row.client_id)) return 'client_id_taken'
  const { id } = await allocateId(db, 'contributions')
  await insertPublic(db, {
    ...row,
    id,
    thread_id: target ? Number(target.thread_id) : id,
    reply_to_participant_id: target ? target.participant_id : null,
  })
  await saveUsage(db, row.participant_id, usage)
  return { id: drawnId(id) }
}

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

export async function findContribution(db: Db, id: number): Promise<Contribution | undefined> {
  const row = await withAuthor(db).where('c.id', '=', id).executeTakeFirst()
  return row && toContribution(row)
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
