import { PostgresAdapter, sql, type Kysely } from 'kysely'

/**
 * PostgreSQL: the tables whose ids are published (store/public-ids.ts) fill their pages only to 90%.
 * Every row there is written twice, inserted with a provisional id and rewritten with its public one
 * (a new version of the row), the insert-then-update pattern fillfactor is for. Filled to the brim
 * (the default), a vacuumed table lists the few bytes left at the end of each page as free space, and
 * a short post goes into one of them, its rewrite into another: two old pages of a large table read
 * and dirtied per post, each written whole into the WAL after a checkpoint. With a tenth of each
 * page kept back, the rewrite finds room on the page of its insert, and pages filled before the setting
 * take no new row at all (their gaps are smaller than a row plus the tenth). Measured after a
 * checkpoint, writing into a database seeded at 300,000 contributions: 0.84 full-page images and
 * 11 KB of WAL a post against 2.0 and 22 KB; into one seeded at 1M before the setting, 0.1 and 6 KB
 * against 2.1 and 22 KB, with a twelfth of the heap pages read. Nothing is rewritten now: the setting
 * applies to pages written from here on. SQLite has no such setting (its rows are kept in rowid order).
 */
const TABLES = ['contributions', 'memory_revisions'] as const
export const PUBLICATION_FILLFACTOR = 90

export async function up(db: Kysely<unknown>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return
  for (const table of TABLES) {
    await sql`alter table ${sql.table(table)} set (fillfactor = ${sql.lit(PUBLICATION_FILLFACTOR)})`.execute(db)
  }
}

export async function down(): Promise<void> {
  throw new Error('Clearing migrations are forward-only.')
}
