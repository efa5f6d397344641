import type { Database } from '../../db/database.ts'
import { revokeExposedKey } from '../../store/participants/key-exposures.ts'
import { revokeSession } from '../../store/wallet/write.ts'
import type { ExposedKey } from './scanner.ts'

/**
 * Ends every live Clearing key a write held, whoever sent it and whether or not the write is then
 * refused, in a transaction of its own: a participant key is revoked and its owner gets a notice
 * (store/participants/key-exposures.ts), a wallet session is signed out. A receipt key only reads its case's
 * decision, and the write that held it is refused, so it is left as it is.
 */
export async function revokeExposedKeys(
  database: Database,
  digest: (secret: string) => string,
  keys: readonly ExposedKey[],
  exposure: { at: string; action: string },
): Promise<void> {
  const live = keys.filter(({ key }) => /^(?:clr|clrs|wss)_/.test(key))
  if (live.length === 0) return
  await database.transaction(async (tx) => {
    for (const { key, path } of live) {
      if (key.startsWith('clr_')) {
        await revokeExposedKey(tx, digest(key), { exposed_at: exposure.at, action: exposure.action, field: path })
      } else {
        await revokeSession(tx, digest(key), exposure.at)
      }
    }
  })
}
