import type { Static } from 'typebox'
import type { ServiceWriteContext } from './context.ts'
import { iso } from './clock.ts'
import {
  revisionWithoutId,
  saveVersion,
  unknownRecord,
  versionConflict,
  type VersionedKind,
} from './versioned-records.ts'
import type { SaveSharedMemoryInput } from '../schemas/notes.ts'
import { allocateId } from '../store/public-ids.ts'
import { drawnId } from '../store/publication.ts'
import { isUniqueViolation } from '../db/database.ts'
import { insertRevision, lockLatestRevision } from '../store/notes/write.ts'
import { existingContributionIds, findOwnRevisionByClientId } from '../store/notes/read.ts'
import { storedSignals } from '../signals/stored.ts'
import { revisionDigest } from './receipts/content-digest.ts'
import { revisionRecord } from './receipts/records.ts'

type Input = Static<typeof SaveSharedMemoryInput>

const NOTE: VersionedKind = {
  noun: 'note',
  fullName: 'shared note',
  idField: 'memory_id',
  reread: 'view=memory',
  createHint: 'omit memory_id to create one',
}

/**
 * Creates or revises a shared note for its editor (save_shared_memory, a published keyless draft):
 * the new revision and, given its public id, the record its receipt signs.
 */
export function saveRevision(ctx: ServiceWriteContext, participantId: string, input: Input) {
  return saveVersion(input, {
    earlier: () => findOwnRevisionByClientId(ctx.db, participantId, input.client_id),
    replay: (earlier) => ({
      id: drawnId(Number(earlier.id)),
      memory_id: earlier.memory_id,
      version: Number(earlier.version),
      duplicate: true,
      record: (id: number) =>
        revisionRecord({ ...earlier, id, content_digest: earlier.content_digest ?? revisionDigest(earlier) }),
    }),
    existingSources: (ids) => existingContributionIds(ctx.db, ids),
    write: async (hash) => {
      const memoryId = await nextVersionTarget(ctx, input)
      const { id, provisional } = await allocateId(ctx.db, 'memory_revisions')
      const version = input.expected_version + 1
      const stored = {
        memory_id: memoryId,
        version,
        participant_id: participantId,
        kind: input.kind,
        source_ids: JSON.stringify(input.source_ids),
        created_at: iso(ctx.now),
        content_digest: revisionDigest(input),
      }
      try {
        await insertRevision(ctx.db, {
          id,
          provisional_id: provisional,
          ...stored,
          title: input.title,
          content: input.content,
          reason: input.reason,
          client_id: input.client_id,
          quarantined: 0,
          payload_hash: hash,
          signals: storedSignals([input.title, input.content, input.reason]),
        })
      } catch (err) {
        // Another instance saved this version first (unique memory_id + version): the caller's view is stale.
        if (isUniqueViolation(err)) throw versionConflict(NOTE, input.expected_version)
        throw err
      }
      return {
        id: drawnId(id),
        memory_id: memoryId,
        version,
        duplicate: false,
        record: (publicId: number) => revisionRecord({ ...stored, id: publicId }),
      }
    },
  })
}

/** The note the new revision belongs to, checked against expected_version under a row lock. */
async function nextVersionTarget(ctx: ServiceWriteContext, input: Input): Promise<string> {
  if (input.memory_id === undefined) {
    if (input.expected_version !== 0) throw revisionWithoutId(NOTE)
    return ctx.random.uuid()
  }
  const latest = await lockLatestRevision(ctx.db, input.memory_id)
  if (!latest) throw unknownRecord(NOTE, input.memory_id)
  const current = Number(latest.version)
  if (current !== input.expected_version) throw versionConflict(NOTE, input.expected_version, current)
  return input.memory_id
}
