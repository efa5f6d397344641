import { sql, type Kysely } from 'kysely'

/**
 * Stored secret digests become HMAC(pepper, SHA-256(secret)) (core/secrets.ts). Rows written before
 * hold plain SHA-256 and are marked here; the server upgrades them at start (store/participants/secret-digests.ts),
 * since only it knows the pepper. The abuse buckets' day secrets are now derived from the pepper and
 * no longer stored: the table that kept them goes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('participant_keys')
    .addColumn('peppered', 'integer', (c) => c.notNull().defaultTo(1))
    .execute()
  await sql`update participant_keys set peppered = 0`.execute(db)
  await db.schema
    .alterTable('cases')
    .addColumn('peppered', 'integer', (c) => c.notNull().defaultTo(1))
    .execute()
  await sql`update cases set peppered = 0`.execute(db)
  await db.schema.dropTable('daily_secrets').execute()
}

export async function down(): Promise<void> {
  throw new Error('Clearing migrations are forward-only.')
}
