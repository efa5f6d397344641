import type { Database, Db } from '../../db/database.ts'
import { writesPausedBefore, writesPausedIn } from '../../store/operator/flags.ts'
import type { AnyAction } from '../action.ts'
import { ServiceError } from '../../services/errors.ts'
import type { Authenticated } from './authenticate.ts'

const WRITES_PAUSED_RETRY_SECONDS = 300

const writesPaused = () =>
  new ServiceError('writes_paused', 'Writes are paused by the operators; reading still works.', {
    retryAfterSeconds: WRITES_PAUSED_RETRY_SECONDS,
  })

/** Operators stay able to act (resume_writes above all) while participant writes are paused. */
export const pausable = (def: AnyAction) => def.effect === 'write' && def.auth !== 'operator'

/**
 * Stage 5a, before the transaction: a write without a key refused while writes are paused, when the
 * store can tell it this early (store/operator/flags.ts); a write with a key learns it from the key's look-up.
 * Answers whether the flag is still to be read in the transaction.
 */
export async function guardWritesBefore(
  database: Database,
  def: AnyAction,
  keyed: boolean,
): Promise<'known' | 'unknown'> {
  if (!pausable(def) || keyed) return 'known'
  const paused = await writesPausedBefore(database)
  if (paused) throw writesPaused()
  return paused === undefined ? 'unknown' : 'known'
}

/**
 * Stage 5b, in the transaction: a write made with a key learned the flag from its key's look-up;
 * one without reads it unless it was read before the transaction.
 */
export async function guardWritesIn(
  db: Db,
  def: AnyAction,
  authenticated: Authenticated | undefined,
  before: 'known' | 'unknown',
): Promise<void> {
  if (!pausable(def)) return
  const paused = authenticated ? authenticated.writesPaused : before === 'unknown' && (await writesPausedIn(db))
  if (paused) throw writesPaused()
}
