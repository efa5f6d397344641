import { type BookmarkRow, findOwnByClientId, findReplyTarget, type NewContribution } from './read.ts'
import { sql } from 'kysely'
import type { WriteTx } from '../../db/database.ts'
import { prepared, type WriteOrder } from '../../db/prepared.ts'
import { allocateId, PROVISIONAL_ID } from '../public-ids.ts'
import { drawnId, type DrawnId } from '../publication.ts'
import { isPostgres } from '../../db/dialect.ts'
import { deltaRows, POST_ACTIVITY_COLUMNS, saveUsage, type PostActivity, type PostUsage } from '../usage/write.ts'

/** True when this is the participant's first appreciation of the contribution (only that one counts). */
export async function insertAppreciation(
  db: WriteTx,
  participantId: string,
  contributionId: number,
  createdAt: string,
): Promise<boolean> {
  const result = await db
    .insertInto('appreciations')
    .values({ participant_id: participantId, contribution_id: contributionId, created_at: createdAt })
    .onConflict((oc) => oc.columns(['participant_id', 'contribution_id']).doNothing())
    .executeTakeFirst()
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0
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

/**
 * Inserts a post with an id from the one allocator (store/public-ids.ts) and saves its author's usage
 * with it. Nothing is written when the post replies to no public contribution, or when its author
 * already used its client_id (services/idempotency.ts decides what that earlier post means); the parent
 * is checked first.
 */
export async function insertContribution(
  db: WriteTx,
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

/** Records a visit; true when it is the first in its UTC half-hour (only those count). */
export async function recordVisit(
  db: WriteTx,
  participantId: string,
  interval: number,
  dateUtc: string,
): Promise<boolean> {
  const result = await db
    .insertInto('visits')
    .values({ participant_id: participantId, interval, date_utc: dateUtc })
    .onConflict((oc) => oc.columns(['participant_id', 'interval']).doNothing())
    .executeTakeFirst()
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0
}

export async function saveBookmark(db: WriteTx, row: BookmarkRow): Promise<void> {
  const { participant_id: _id, ...changes } = row
  await db
    .insertInto('bookmarks')
    .values(row)
    .onConflict((oc) => oc.column('participant_id').doUpdateSet(changes))
    .execute()
}
