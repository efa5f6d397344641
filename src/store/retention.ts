import { sql } from 'kysely'
import type { Db, WriteTx } from '../db/database.ts'
import { isPostgres } from '../db/dialect.ts'

/** Maintenance: abuse buckets of days before the cutoff are deleted. Idempotent. */
export async function deleteOldAbuseData(db: WriteTx, dayBefore: string): Promise<number> {
  const buckets = await db.deleteFrom('abuse_buckets').where('day', '<', dayBefore).executeTakeFirst()
  return Number(buckets.numDeletedRows)
}

/**
 * Maintenance, after its transaction: erased text leaves the database's files, not only its answers.
 * Erasures overwrite text in these tables (rejected and expired drafts, erased profile fields, withdrawn
 * learning), and PostgreSQL keeps each row's old version, text and all, in the table, its TOAST and its
 * indexes until VACUUM removes it; SKIP_LOCKED passes a table another instance is vacuuming, TRUNCATE
 * false takes no lock writers would wait for. SQLite overwrites it in the file (secure_delete), but its
 * write-ahead log keeps copies of the old pages until a checkpoint empties the log.
 */
export async function reclaimErasedSpace(db: Db): Promise<void> {
  if (isPostgres(db)) {
    await sql`vacuum (skip_locked, truncate false) drafts, participants, learning_revisions`.execute(db)
  } else await sql`pragma wal_checkpoint(truncate)`.execute(db)
}
