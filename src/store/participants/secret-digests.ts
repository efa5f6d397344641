import type { Db } from '../../db/database.ts'

const BATCH = 500

/**
 * Upgrades digests stored before the pepper (plain SHA-256, `peppered = 0`) to the peppered form,
 * once, at start. Each row is rewritten only if it is still the legacy row, so instances starting
 * together never upgrade a row twice. Returns how many rows were upgraded.
 */
export async function upgradeLegacyDigests(db: Db, upgrade: (legacy: string) => string): Promise<number> {
  let upgraded = 0
  for (;;) {
    const keys = await db
      .selectFrom('participant_keys')
      .select('key_hash')
      .where('peppered', '=', 0)
      .limit(BATCH)
      .execute()
    for (const { key_hash } of keys) {
      const result = await db
        .updateTable('participant_keys')
        .set({ key_hash: upgrade(key_hash), peppered: 1 })
        .where('key_hash', '=', key_hash)
        .where('peppered', '=', 0)
        .executeTakeFirst()
      upgraded += Number(result.numUpdatedRows)
    }
    if (keys.length < BATCH) break
  }
  for (;;) {
    const cases = await db
      .selectFrom('cases')
      .select(['id', 'receipt_hash'])
      .where('peppered', '=', 0)
      .limit(BATCH)
      .execute()
    for (const row of cases) {
      const result = await db
        .updateTable('cases')
        .set({ receipt_hash: upgrade(row.receipt_hash), peppered: 1 })
        .where('id', '=', row.id)
        .where('peppered', '=', 0)
        .executeTakeFirst()
      upgraded += Number(result.numUpdatedRows)
    }
    if (cases.length < BATCH) break
  }
  return upgraded
}
