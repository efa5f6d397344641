import { sql } from 'kysely'
import type { Db } from '../../src/db/database.ts'
import { dialect } from './database.ts'

/**
 * A fingerprint of everything stored: every table's rows (abuse buckets aside: refused attempts are
 * counted there on purpose), in a stable order. A refused request must leave it unchanged.
 */
export async function storedState(db: Db): Promise<string> {
  const tables =
    dialect === 'postgres'
      ? (
          await sql<{ name: string }>`select table_name as name from information_schema.tables
            where table_schema = current_schema() and table_type = 'BASE TABLE'`.execute(db)
        ).rows
      : (await sql<{ name: string }>`select name from sqlite_master where type = 'table'`.execute(db)).rows
  // Usage totals and deltas change shape when the background rollup folds one into the other:
  // they are compared as what the summary reads, the sum per counter name.
  // The chain heads are derived from the public rows and extended when read (services/receipts/chain.ts).
  const skip = new Set([
    'chain_heads',
    'abuse_buckets',
    'kysely_migration',
    'kysely_migration_lock',
    'sqlite_sequence',
    'usage_totals',
    'usage_deltas',
  ])
  const parts: string[] = []
  for (const { name } of tables.sort((a, b) => (a.name < b.name ? -1 : 1))) {
    if (skip.has(name) || name.includes('fts')) continue
    const { rows } = await sql<Record<string, unknown>>`select * from ${sql.table(name)}`.execute(db)
    const lines = rows.map((row) => JSON.stringify(row, Object.keys(row).sort())).sort()
    parts.push(`${name}:${lines.join('\n')}`)
  }
  const { rows } = await sql<{ name: string; value: number }>`select name, sum(value) as value from (
    select name, value from usage_totals union all select name, delta as value from usage_deltas) as u
    group by name having sum(value) <> 0 order by name`.execute(db)
  parts.push(`usage:${rows.map((r) => `${r.name}=${Number(r.value)}`).join(',')}`)
  return parts.join('\n\n')
}
