import type { Db } from './database.ts'

/** Maintenance: abuse buckets and daily secrets of days before the cutoff are deleted. Idempotent. */
export async function deleteOldAbuseData(db: Db, dayBefore: string): Promise<number> {
  const buckets = await db.deleteFrom('abuse_buckets').where('day', '<', dayBefore).executeTakeFirst()
  const secrets = await db.deleteFrom('daily_secrets').where('day', '<', dayBefore).executeTakeFirst()
  return Number(buckets.numDeletedRows) + Number(secrets.numDeletedRows)
}
