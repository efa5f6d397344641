import type { Db } from './database.ts'
import { prepared } from './prepared.ts'

/** One counted event: its scope, the caller's bucket key, the fixed window and its UTC day. */
type BucketEvent = {
  scope: string
  bucket: string
  window: number
  day: string
}

// Every rate-limited write charges a bucket: compiled once (store/prepared.ts).
const charge = prepared(
  (db, entry: BucketEvent) =>
    db
      .insertInto('abuse_buckets')
      .values({ ...entry, count: 1 })
      .onConflict((oc) =>
        oc.columns(['scope', 'bucket', 'window']).doUpdateSet((eb) => ({ count: eb('abuse_buckets.count', '+', 1) })),
      )
      .returning('count'),
  ['scope', 'bucket', 'window', 'day'],
)

/** Counts one event in a fixed window and returns the count including it. */
export async function chargeBucket(db: Db, entry: BucketEvent): Promise<number> {
  const [row] = await charge(db, entry)
  if (row === undefined) throw new Error('abuse bucket insert returned no row')
  return Number(row.count)
}
