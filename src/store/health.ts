import { sql } from 'kysely'
import type { Db } from '../db/database.ts'

/** True once the database answers a query (the health check). */
export async function databaseAnswers(db: Db): Promise<boolean> {
  try {
    await sql`select 1`.execute(db)
    return true
  } catch {
    return false
  }
}
