import type { Expression, OnConflictBuilder, QueryCreator } from 'kysely'
import type { WriteTx } from '../db/database.ts'
import { prepared } from '../db/prepared.ts'
import type { Schema } from '../db/schema.ts'

/** One counted event: its scope, the caller's bucket key, the fixed window and its UTC day. */
export type BucketEvent = {
  scope: string
  bucket: string
  window: number
  day: string
}

/** A charge adds one to the count of its bucket's window. */
const counted = (oc: OnConflictBuilder<Schema, 'abuse_buckets'>) =>
  oc.columns(['scope', 'bucket', 'window']).doUpdateSet((eb) => ({ count: eb('abuse_buckets.count', '+', 1) }))

/** The charge of one event, answering the bucket's count with it. */
const chargeStep = (qc: QueryCreator<Schema>, entry: BucketEvent) =>
  qc
    .insertInto('abuse_buckets')
    .values({ scope: entry.scope, bucket: entry.bucket, window: entry.window, day: entry.day, count: 1 })
    .onConflict(counted)
    .returning('count')

/**
 * The charge of one event made only while `when` holds and the bucket's count is under `limit`,
 * answering the count with it, or no row. The count is read under the bucket's row lock
 * (ON CONFLICT DO UPDATE ... WHERE sees its latest version), so concurrent charges never pass the
 * limit (a join: store/participants/registration.ts). A bucket's first charge is always made: limits are at least 1
 * (config.ts).
 */
export const chargeWithinStep = (
  qc: QueryCreator<Schema>,
  entry: BucketEvent,
  limit: number,
  when: Expression<boolean>,
) =>
  qc
    .insertInto('abuse_buckets')
    .columns(['scope', 'bucket', 'window', 'day', 'count'])
    .expression(
      qc
        .selectNoFrom((eb) => [
          eb.val(entry.scope).as('scope'),
          eb.val(entry.bucket).as('bucket'),
          eb.val(entry.window).as('window'),
          eb.val(entry.day).as('day'),
          eb.lit(1).as('count'),
        ])
        .where(when),
    )
    .onConflict((oc) => counted(oc).where('abuse_buckets.count', '<', limit))
    .returning('count')

// Every rate-limited write charges a bucket: compiled once (db/prepared.ts).
const charge = prepared((db, entry: BucketEvent) => chargeStep(db, entry), ['scope', 'bucket', 'window', 'day'])

/** Counts one event in a fixed window and returns the count including it. */
export async function chargeBucket(db: WriteTx, entry: BucketEvent): Promise<number> {
  const [row] = await charge(db, entry)
  if (row === undefined) throw new Error('abuse bucket insert returned no row')
  return Number(row.count)
}
