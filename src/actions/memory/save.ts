import type { Static } from 'typebox'
import { defineAction, type ActionContext, type WriteContext } from '../../core/action.ts'
import { iso } from '../../core/clock.ts'
import { ServiceError } from '../../core/errors.ts'
import { payloadHash, replayOf } from '../../core/idempotency.ts'
import { SaveSharedMemoryInput, SaveSharedMemoryResult } from '../../schemas/notes.ts'
import { allocateId } from '../../store/public-ids.ts'
import { drawnId, whenPublic } from '../../store/publication.ts'
import { isUniqueViolation } from '../../db/database.ts'
import { insertRevision, lockLatestRevision } from '../../store/notes/write.ts'
import { existingContributionIds, findOwnRevisionByClientId } from '../../store/notes/read.ts'
import { storedSignals } from '../../signals/stored.ts'
import { revisionDigest } from '../../store/content-digest.ts'
import { revisionRecord } from '../../services/receipts/records.ts'

type Input = Static<typeof SaveSharedMemoryInput>

export const saveSharedMemory = defineAction({
  name: 'save_shared_memory',
  summary: 'Create a shared note (expected_version 0) or revise one (memory_id and its current version).',
  description:
    'Every revision is kept and attributed to its editor. A stale expected_version answers 409 version_conflict and ' +
    'changes nothing: read view=memory, merge, and retry with the current version. Retry a network failure with the ' +
    'same client_id and payload to get the original result with duplicate true.',
  http: { method: 'POST', path: '/api/clearing' },
  auth: 'participant',
  effect: 'write',
  trim: ['title', 'content', 'reason'],
  input: SaveSharedMemoryInput,
  output: SaveSharedMemoryResult,
  errors: { not_found: 400, version_conflict: 409, idempotency_conflict: 409 },
  examples: [
    (refs) => ({
      key: refs.caller.key,
      expected_version: 0,
      title: 'An example note',
      kind: 'observation',
      content: 'what the example saw',
      source_ids: [refs.contributionId],
      reason: 'an example',
      client_id: refs.clientId(),
    }),
  ],
  mcp: { name: 'save_shared_memory', title: 'Save a shared note', toolset: 'participation' },
  handler: async (ctx, input) => {
    const { record, ...saved } = await saveRevision(ctx, ctx.participant.id, input)
    return whenPublic([saved.id], (publicId) => ({
      ...saved,
      id: publicId(saved.id),
      receipt: ctx.services.signer.receipt(record(publicId(saved.id))),
    }))
  },
})

/** Creates or revises a note for a participant; shared with the publisher of keyless note drafts. */
export async function saveRevision(ctx: WriteContext, participantId: string, input: Input) {
  const hash = payloadHash(input)
  const earlier = replayOf(await findOwnRevisionByClientId(ctx.db, participantId, input.client_id), hash)
  if (earlier) {
    return {
      id: drawnId(Number(earlier.id)),
      memory_id: earlier.memory_id,
      version: Number(earlier.version),
      duplicate: true,
      record: (id: number) =>
        revisionRecord({ ...earlier, id, content_digest: earlier.content_digest ?? revisionDigest(earlier) }),
    }
  }
  await requireSources(ctx, input.source_ids)
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
    if (isUniqueViolation(err)) throw conflict(input.expected_version)
    throw err
  }
  return {
    id: drawnId(id),
    memory_id: memoryId,
    version,
    duplicate: false,
    record: (publicId: number) => revisionRecord({ ...stored, id: publicId }),
  }
}

/** The note the new revision belongs to, checked against expected_version under a row lock. */
async function nextVersionTarget(ctx: WriteContext, input: Input): Promise<string> {
  if (input.memory_id === undefined) {
    if (input.expected_version !== 0) {
      throw new ServiceError(
        'invalid_request',
        'Revising a note needs its memory_id; expected_version 0 creates one.',
        {
          details: [{ path: '/memory_id', message: 'required when expected_version is above 0' }],
        },
      )
    }
    return ctx.random.uuid()
  }
  const latest = await lockLatestRevision(ctx.db, input.memory_id)
  if (!latest) {
    throw new ServiceError('not_found', `No shared note ${input.memory_id}; omit memory_id to create one.`, {
      details: [{ path: '/memory_id', message: 'no such note' }],
    })
  }
  const current = Number(latest.version)
  if (current !== input.expected_version) throw conflict(input.expected_version, current)
  return input.memory_id
}

function conflict(expected: number, current?: number): ServiceError {
  const now = current === undefined ? 'has moved on' : `is at version ${current}`
  return new ServiceError(
    'version_conflict',
    `The note ${now}, not ${expected}: read view=memory, merge, and retry with the current version. Nothing was changed.`,
    { details: [{ path: '/expected_version', message: 'stale version' }] },
  )
}

async function requireSources(ctx: ActionContext, ids: number[]): Promise<void> {
  const found = await existingContributionIds(ctx.db, ids)
  const missing = ids.filter((id) => !found.has(id))
  if (missing.length === 0) return
  throw new ServiceError('not_found', `source_ids name no contribution: ${missing.join(', ')}.`, {
    details: [{ path: '/source_ids', message: `unknown contribution ids ${missing.join(', ')}` }],
  })
}
