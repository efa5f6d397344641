import { sql, type QueryCreator } from 'kysely'
import { chargeBucket, chargeWithinStep, type BucketEvent } from '../abuse.ts'
import { pickSlot, shareOf, takeSlotStep, takeSlotUnlocked } from './capacity.ts'
import { USAGE_COUNTERS } from '../counter-names.ts'
import type { Db, WriteTx } from '../../db/database.ts'
import { isPostgres } from '../../db/dialect.ts'
import { insertKey, insertParticipant, newKeyRow, type ParticipantRow } from './write.ts'
import { prepared, type WriteOrder } from '../../db/prepared.ts'
import type { Schema } from '../../db/schema.ts'
import { deltaRows, emptyActivity, joinUsage } from '../usage/write.ts'
import { modelLabelDigest } from '../usage/rebuild.ts'

/** A self-registration: the client's rate bucket, the registration capacity and the new participant. */
export interface Registration {
  event: BucketEvent
  /** The most registrations the bucket's window admits. */
  limit: number
  capacity: number
  participant: ParticipantRow
  keyHash: string
}

/**
 * What became of it. `count` is the bucket's count with this registration (past `limit` when the
 * rate refused it); `joined` is false when the rate or the capacity refused it, and then nothing of
 * it stays: neither a charge, nor a unit of capacity, nor a row (on SQLite, once the caller's
 * transaction rolls the charge back).
 */
export interface Registered {
  count: number
  joined: boolean
}

/**
 * Charges the registration to its client's bucket while the bucket's count is within the limit,
 * takes a unit of capacity (store/participants/capacity.ts) and writes the participant, its empty activity, its
 * first key and its usage, all or nothing.
 *
 * PostgreSQL runs it as one statement (below); SQLite as a few in the caller's transaction, which the
 * caller rolls back on a refusal (SQLite has one writer, so nothing runs between them).
 */
export async function registerParticipant(db: WriteTx, r: Registration, write: WriteOrder = {}): Promise<Registered> {
  if (isPostgres(db)) return registerAtOnce(db, r, write)
  const count = await chargeBucket(db, r.event)
  if (count > r.limit || (await takeSlotUnlocked(db, shareOf(r.capacity))).length === 0) return { count, joined: false }
  await insertParticipant(db, r.participant)
  await insertKey(db, r.keyHash, r.participant.id, r.participant.created_at)
  return { count, joined: true }
}

/** Every row of a registration is written only if it took its unit of capacity. */
const TOOK_UNIT = sql<boolean>`exists (select from taken)`

/** `insert into table (its columns) select the values where TOOK_UNIT`: the row as `values` would write it. */
const insertIfJoined = <T extends keyof Schema & string>(
  qc: QueryCreator<Schema>,
  table: T,
  row: Record<string, unknown>,
) => {
  const columns = Object.keys(row)
  return qc
    .insertInto(table)
    .columns(columns as never)
    .expression(qc.selectNoFrom((eb) => columns.map((column) => eb.val(row[column]).as(column))).where(TOOK_UNIT))
}

type RegistrationValues = BucketEvent &
  ParticipantRow & {
    limit: number
    share: number
    extraBelow: number
    key_hash: string
    label_digest: string
    label_counter: string
    delta_names: string[]
    delta_values: number[]
  }

/**
 * PostgreSQL: the whole registration in one round trip, its COMMIT sent with it when it ends the
 * transaction (db/pg-statements.ts). A join was two round trips (the charge with the unit, then the
 * rows) and a refusal rolled the first back; here nothing is written that a refusal would have to
 * undo:
 * - a unit is picked first: a slot with room that no other join holds (SKIP LOCKED), or, only when
 *   every slot with room is held, the first to come free (`waited`, which waits for its lock);
 * - the charge is made only with a slot picked and only while the bucket's count is under the limit,
 *   decided on the bucket's latest count under its row lock (ON CONFLICT DO UPDATE ... WHERE), so
 *   concurrent joins from one client never pass the limit;
 * - the unit is taken only when the charge was made, and every row is written only when it was taken.
 * Every join locks its slot before its bucket, so two joins never wait for each other in a circle.
 */
const registration = prepared((db, v: RegistrationValues) => {
  const activity = emptyActivity(v.id)
  return db
    .with('free', (qc) => pickSlot(qc, v, 'skip'))
    .with('waited', (qc) => pickSlot(qc, v, 'wait').where(sql<boolean>`not exists (select from free)`))
    .with('chosen', (qc) => qc.selectFrom('free').select('slot').unionAll(qc.selectFrom('waited').select('slot')))
    .with('charged', (qc) => chargeWithinStep(qc, v, v.limit, sql<boolean>`exists (select from chosen)`))
    .with('taken', (qc) =>
      takeSlotStep(qc)
        .where('slot', '=', sql<number>`(select slot from chosen)`)
        .where(sql<boolean>`exists (select from charged)`),
    )
    .with('p', (qc) =>
      insertIfJoined(qc, 'participants', {
        id: v.id,
        name: v.name,
        model: v.model,
        status: v.status,
        suspended: v.suspended,
        provenance: v.provenance,
        provenance_note: v.provenance_note,
        created_at: v.created_at,
      }),
    )
    .with('u', (qc) => insertIfJoined(qc, 'usage_participants', { ...activity, participant_id: v.id }))
    .with('k', (qc) => insertIfJoined(qc, 'participant_keys', newKeyRow(v.key_hash, v.id, v.created_at)))
    .with('l', (qc) =>
      insertIfJoined(qc, 'usage_model_labels', { label_digest: v.label_digest })
        .onConflict((oc) => oc.doNothing())
        .returning('label_digest'),
    )
    .with('d', (qc) =>
      qc
        .insertInto('usage_deltas')
        .columns(['name', 'delta'])
        .expression(
          sql`select * from unnest(${v.delta_names}::text[], ${v.delta_values}::bigint[]) where ${TOOK_UNIT}
              union all select ${v.label_counter}::text, 1::bigint where exists (select from l)`,
        ),
    )
    .selectNoFrom((eb) => [
      eb.selectFrom('charged').select('charged.count').as('count'),
      eb.selectFrom('taken').select('taken.slot').as('slot'),
      eb.exists(eb.selectFrom('chosen').select('chosen.slot')).as('had_room'),
      // The count before this statement: what a refusal reports.
      eb
        .selectFrom('abuse_buckets')
        .select('abuse_buckets.count')
        .where('scope', '=', v.scope)
        .where('bucket', '=', v.bucket)
        .where('window', '=', v.window)
        .as('seen'),
    ])
})

async function registerAtOnce(db: Db, r: Registration, write: WriteOrder): Promise<Registered> {
  const { participant: row } = r
  // Whether the model label is new is known only to the label's insert: its delta is added in the statement.
  const deltas = deltaRows(joinUsage({ provenance: row.provenance, newModelLabel: false, status: row.status }))
  const [answer] = await registration(
    db,
    {
      ...r.event,
      ...row,
      ...shareOf(r.capacity),
      limit: r.limit,
      key_hash: r.keyHash,
      label_digest: modelLabelDigest(row.model),
      label_counter: USAGE_COUNTERS.modelLabels,
      delta_names: deltas.map((d) => d.name),
      delta_values: deltas.map((d) => d.delta),
    },
    write,
  )
  if (answer === undefined) throw new Error('the registration statement returned no row')
  if (answer.slot !== null) return { count: Number(answer.count), joined: true }
  const next = Number(answer.seen ?? 0) + 1
  // A unit was there but the charge was refused: the bucket's latest count was at the limit, even if
  // this statement's snapshot saw it lower.
  if (answer.had_room) return { count: Math.max(next, r.limit + 1), joined: false }
  // No unit: registration is full. Past the limit too, the rate is what the client is told.
  return { count: next, joined: false }
}
