import type { Db } from './database.ts'

/**
 * The secret of the day that turns client addresses into pseudonymous buckets. It lives in the
 * database so every instance derives the same bucket; maintenance deletes old ones, which makes
 * old buckets unlinkable to any address.
 */
export async function dailySecret(db: Db, day: string, candidate: string): Promise<string> {
  await db
    .insertInto('daily_secrets')
    .values({ day, secret: candidate })
    .onConflict((oc) => oc.column('day').doNothing())
    .execute()
  const row = await db.selectFrom('daily_secrets').select('secret').where('day', '=', day).executeTakeFirstOrThrow()
  return row.secret
}

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
