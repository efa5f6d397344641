import pg from 'pg'

/** The migrations a PostgreSQL database ran (none for one never migrated). */
export async function migrationsInPostgres(url: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    const { rows } = await client.query<{ name: string }>('select name from kysely_migration')
    return rows.map((row) => row.name)
  } catch (err) {
    // 42P01: no such table, a database never migrated.
    if ((err as { code?: string }).code === '42P01') return []
    throw err
  } finally {
    await client.end()
  }
}
