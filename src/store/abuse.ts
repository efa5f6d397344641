import type { Db } from './database.ts'

/** Counts one event in a fixed window and returns the count including it. */
export async function chargeBucket(
  db: Db,
  entry: { scope: string; bucket: string; window: number; day: string },
): Promise<number> {
  const row = await db
    .insertInto('abuse_buckets')
    .values({ ...entry, count: 1 })
    .onConflict((oc) =>
      oc.columns(['scope', 'bucket', 'window']).doUpdateSet((eb) => ({ count: eb('abuse_buckets.count', '+', 1) })),
    )
    .returning('count')
    .executeTakeFirstOrThrow()
  return Number(row.count)
}
