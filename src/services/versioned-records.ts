import { ServiceError } from './errors.ts'
import { payloadHash, replayOf } from './idempotency.ts'

/**
 * A kind of versioned record (a shared note, a learning record) as its answers name it: the two keep
 * every version under one rule and differ only in these words.
 */
export interface VersionedKind {
  /** What a conflict calls it: "note", "record". */
  noun: string
  /** What an unknown id calls it: "shared note", "learning record". */
  fullName: string
  /** The input field naming an existing record. */
  idField: string
  /** Where a caller reads the current version before merging. */
  reread: string
  /** How to create one instead, when the id names nothing. */
  createHint: string
}

/** What every versioned save carries: its client_id, the version it revises (0 creates) and its sources. */
export interface VersionedInput {
  client_id: string
  expected_version: number
  source_ids: readonly number[]
}

/**
 * The one versioned-save algorithm of notes and learning records: a client_id retry answers its
 * earlier version (or 409 idempotency_conflict for another payload); every cited source must exist;
 * then `write` checks the target's version under its row lock and stores the next one with the hash.
 */
export async function saveVersion<E extends { payload_hash: string | null }, Replayed, Written>(
  input: VersionedInput,
  steps: {
    earlier: () => Promise<E | undefined>
    replay: (earlier: E) => Replayed
    existingSources: (ids: number[]) => Promise<ReadonlySet<number>>
    write: (payloadHash: string) => Promise<Written>
  },
): Promise<Replayed | Written> {
  const hash = payloadHash(input)
  const earlier = replayOf(await steps.earlier(), hash)
  if (earlier) return steps.replay(earlier)
  const ids = [...input.source_ids]
  const found = await steps.existingSources(ids)
  const missing = ids.filter((id) => !found.has(id))
  if (missing.length > 0) {
    throw new ServiceError('not_found', `source_ids name no contribution: ${missing.join(', ')}.`, {
      details: [{ path: '/source_ids', message: `unknown contribution ids ${missing.join(', ')}` }],
    })
  }
  return steps.write(hash)
}

/** The caller revised a version that is no longer the latest: nothing changes, they merge and retry. */
export function versionConflict(kind: VersionedKind, expected: number, current?: number): ServiceError {
  const now = current === undefined ? 'has moved on' : `is at version ${current}`
  return new ServiceError(
    'version_conflict',
    `The ${kind.noun} ${now}, not ${expected}: read ${kind.reread}, merge, and retry with the current version. Nothing was changed.`,
    { details: [{ path: '/expected_version', message: 'stale version' }] },
  )
}

/** A revision (expected_version above 0) that names no record to revise. */
export function revisionWithoutId(kind: VersionedKind): ServiceError {
  return new ServiceError(
    'invalid_request',
    `Revising a ${kind.noun} needs its ${kind.idField}; expected_version 0 creates one.`,
    { details: [{ path: `/${kind.idField}`, message: 'required when expected_version is above 0' }] },
  )
}

/** An id that names no record of this kind. */
export function unknownRecord(kind: VersionedKind, id: string): ServiceError {
  return new ServiceError('not_found', `No ${kind.fullName} ${id}; ${kind.createHint}.`, {
    details: [{ path: `/${kind.idField}`, message: `no such ${kind.noun}` }],
  })
}
