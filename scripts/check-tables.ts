/**
 * npm run check: the table types the store declares (src/store/<resource>/tables.ts, merged into
 * src/db/schema.ts) against the schema the migrations make, on SQLite and, when one is given or
 * answers on 127.0.0.1:5432, on PostgreSQL. Fails with every table or column on one side only and
 * every nullability that disagrees.
 */
import { declaredTables } from './tables/declared.ts'
import { migratedTables, postgresUrl, withScratchDatabase } from './tables/migrated.ts'
import { tableDrift } from './tables/shape.ts'

const declared = declaredTables()
const problems = tableDrift(declared, await migratedTables('sqlite::memory:'), 'sqlite')
const postgres = await postgresUrl()
if (postgres) {
  const migrated = await withScratchDatabase(postgres, (url) => migratedTables(url))
  problems.push(...tableDrift(declared, migrated, 'postgres'))
}
const checked = postgres ? 'SQLite and PostgreSQL' : 'SQLite (no PostgreSQL given or on 127.0.0.1:5432)'
if (problems.length > 0) {
  console.error(`The declared table types disagree with the migrated schema:\n  ${problems.join('\n  ')}`)
  process.exit(1)
}
console.log(`table types: ${declared.size} tables agree with the migrations on ${checked}`)
process.exit(0)
