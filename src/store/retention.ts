import type { Db } from '../db/database.ts'

/** Maintenance: abuse buckets of days before the cutoff are deleted. Idempotent. */
export async function deleteOldAbuseData(db: Db, dayBefore: string): Promise<number> {
  const buckets = await db.deleteFrom('abuse_buckets').where('day', '<', dayBefore).executeTakeFirst()
  return Number(buckets.numDeletedRows)
}
