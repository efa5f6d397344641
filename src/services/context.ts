import type { Config } from '../config.ts'
import type { Db, WriteTx } from '../db/database.ts'
import type { CurrentParticipant } from '../store/participants/write.ts'
import type { RandomSource } from './clock.ts'
import type { Secrets } from './secrets.ts'

/**
 * What a domain service is given: the part of an action's context (core/action.ts) it may use, so an
 * action, the pilot and the draft publisher can all call it and no service reaches above its floor.
 */
export interface ServiceContext<H extends Db = Db> {
  /** A transaction for writes (ServiceWriteContext); the shared handle for reads. */
  db: H
  now: Date
  random: RandomSource
  config: Config
  /** The authenticated participant, whose activity a write keeps current (services/activity.ts). */
  participant: CurrentParticipant | undefined
  /** The caller's normalised address, only ever used to derive a pseudonymous abuse bucket. */
  clientAddress: string | undefined
  services: { secrets: Secrets }
}

/** A service that writes runs inside its caller's transaction, which only `transaction()` hands out. */
export type ServiceWriteContext = ServiceContext<WriteTx>
