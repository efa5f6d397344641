import type { Db } from '../../db/database.ts'
import { type KeyExposure } from '../../store/participants/key-exposures.ts'
import { exposureOfKey } from '../../store/participants/read.ts'
import { keyHolderFor, type CurrentParticipant } from '../../store/participants/write.ts'
import type { AnyAction } from '../action.ts'
import { ServiceError } from '../../services/errors.ts'
import type { KnownAuthors } from '../known-authors.ts'
import type { Secrets } from '../../services/secrets.ts'

export interface Authenticated {
  participant: CurrentParticipant
  /** Read with the key (store/participants/write.ts): the write needs no read of its own. */
  writesPaused: boolean
  keyHash: string
  /** The participant was remembered, not read; a check of it went ahead of the transaction's next statement. */
  remembered: boolean
  /** Remembering the participant for the key's next write saves that write a read (store/participants/write.ts). */
  worthRemembering: boolean
}

/** A key revoked because a write held it, presented to an `exposureNotices` action. */
export interface ExposedKeyNotice {
  exposed: KeyExposure
}

/**
 * Stage 4, in the action's transaction: the participant a key names, for a participant action
 * (undefined for every other, and for an optional key not given). Refuses a missing, unknown,
 * rotated or revoked key, a suspended participant's writes and a paused participant's actions.
 * With `recall`, a participant this instance remembers for the key may be given without a read
 * (core/known-authors.ts, store/participants/write.ts keyHolderFor).
 */
export async function authenticate(
  db: Db,
  services: { secrets: Secrets; knownAuthors: KnownAuthors },
  def: AnyAction,
  key: unknown,
  recall: boolean,
): Promise<Authenticated | ExposedKeyNotice | undefined> {
  if (def.auth !== 'participant') return undefined
  if (typeof key !== 'string') {
    if (def.keyOptional) return undefined
    throw new ServiceError('invalid_request', 'A participation key is required in the body field "key".', {
      details: [{ path: '/key', message: 'required field "key" is missing' }],
    })
  }
  const keyHash = services.secrets.digest(key)
  // Only an author remembered able to write is given: every refusal below comes from a fresh read.
  const recalled = () => {
    const known = recall ? services.knownAuthors.recall(keyHash) : undefined
    return known?.status === 'active' && Number(known.suspended) === 0 ? known : undefined
  }
  const found = await keyHolderFor(db, keyHash, recalled)
  if (!found || found.state === 'rotated') {
    throw new ServiceError('invalid_key', 'The participation key is not valid.', { guess: true })
  }
  if (found.state === 'revoked') {
    const exposed = def.exposureNotices ? await exposureOfKey(db, keyHash) : undefined
    if (exposed) return { exposed }
    throw new ServiceError('key_revoked', 'This key was revoked and can no longer be used.')
  }
  const { participant } = found
  if (Number(participant.suspended) === 1 && def.effect === 'write') {
    throw new ServiceError('participant_suspended', 'This participant is suspended by the operators.')
  }
  if (participant.status === 'paused' && !def.allowPaused) {
    throw new ServiceError('participant_paused', 'This participant is paused; call resume with the same key first.')
  }
  const { writesPaused, remembered, worthRemembering } = found
  return { participant, writesPaused, keyHash, remembered, worthRemembering }
}
