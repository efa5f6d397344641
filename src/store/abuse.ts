import type { QueryCreator } from 'kysely'
import type { Db } from './database.ts'
import { prepared } from './prepared.ts'
import type { Schema } from './schema.ts'

/** One counted event: its scope, the caller's bucket key, the fixed window and its UTC day. */
export type BucketEvent = {
  scope: string
  bucket: string
  window: number
  day: string
}

/** The charge of one event, answering the bucket's count with it (also a step of a join: store/capacity.ts). */
export const chargeStep = (qc: QueryCreator<Schema>, entry: BucketEvent) =>
  qc
    .insertInto('abuse_buckets')
    .values({ scope: entry.scope, bucket: entry.bucket, window: entry.window, day: entry.day, count: 1 })
    .onConflict((oc) =>
      oc.columns(['scope', 'bucket', 'window']).doUpdateSet((eb) => ({ count: eb('abuse_buckets.count', '+', 1) })),
    )
    .returning('count')

// Every rate-limited write charges a bucket: compiled once (store/prepared.ts).
const charge = prepared((db, entry: BucketEvent) => chargeStep(db, entry), ['scope', 'bucket', 'window', 'day'])

/** Counts one event in a fixed window and returns the count including it. */
export async function chargeBucket(db: Db, entry: BucketEvent): Promise<number> {
  const [row] = await charge(db, entry)
  if (row === undefined) throw new Error('abuse bucket insert returned no row')
  return Number(row.count)
}
