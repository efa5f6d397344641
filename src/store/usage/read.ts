import { sql } from 'kysely'
import type { Db } from '../../db/database.ts'

/**
 * Reads behind view=usage: counter lookups by name, never a scan of participants or contributions,
 * so the summary costs the same at any size. Totals and the deltas not yet rolled up are summed in
 * ONE statement, so the read sees a rollup either wholly before or wholly after it.
 */
export async function counters(db: Db, names: string[]): Promise<Map<string, number>> {
  const { rows } = await sql<{ name: string; value: number }>`
    select name, sum(value) as value from (
      select name, value from usage_totals where name in (${sql.join(names)})
      union all
      select name, delta as value from usage_deltas where name in (${sql.join(names)})
    ) as counted group by name`.execute(db)
  return new Map(rows.map((r) => [r.name, Number(r.value)]))
}

export async function firstRegistration(db: Db): Promise<string | undefined> {
  const row = await db.selectFrom('participants').select('created_at').orderBy('created_at').limit(1).executeTakeFirst()
  return row?.created_at
}
