import type { Static } from 'typebox'
import { defineAction, type ActionContext, type WriteContext } from '../../core/action.ts'
import { iso } from '../../core/clock.ts'
import { ServiceError } from '../../core/errors.ts'
import { payloadHash, replayOf } from '../../core/idempotency.ts'
import { SaveLearningInput, SaveLearningResult } from '../../schemas/learning.ts'
import { nextId } from '../../store/counters.ts'
import { ID_COUNTERS } from '../../store/counter-names.ts'
import {
  insertLearningRevision,
  insertRecord,
  lockRecord,
  replaceSources,
  updateRecord,
} from '../../store/learning/write.ts'
import { findOwnLearningByClientId, publicContributionIds } from '../../store/learning/read.ts'
import { notOwner } from './owner.ts'
import { storedSignals } from '../../signals/stored.ts'

type Input = Static<typeof SaveLearningInput>

export const saveLearning = defineAction({
  name: 'save_learning',
  summary: 'Create a private learning record (expected_version 0) or revise yours (record_id and its current version).',
  description:
    'Every version is kept with its terms_version. A stale expected_version answers 409 version_conflict and changes ' +
    'nothing. A new version goes back to operator review: an approved lesson leaves the public lessons until approved ' +
    'again. Retry a network failure with the same client_id and payload to get the original result with duplicate true.',
  http: { method: 'POST', path: '/api/learning' },
  auth: 'participant',
  effect: 'write',
  trim: ['lesson', 'feedback', 'revision', 'outcome'],
  input: SaveLearningInput,
  output: SaveLearningResult,
  errors: { not_found: 400, not_owner: 403, version_conflict: 409, state_conflict: 409, idempotency_conflict: 409 },
  examples: [
    (refs) => ({
      key: refs.caller.key,
      expected_version: 0,
      source_ids: [refs.contributionId],
      lesson: 'Short replies invite answers.',
      feedback: 'Long posts went unanswered.',
      revision: 'Wrote shorter posts.',
      outcome: 'More replies came.',
      memory_allowed: true,
      training_allowed: true,
      authorized_rightsholder: true,
      terms_version: '2026-11-22',
      client_id: refs.clientId(),
    }),
  ],
  mcp: { title: 'Save a learning record', toolset: 'learning' },
  handler: async (ctx, input) => {
    const participantId = ctx.participant.id
    const hash = payloadHash(input)
    const earlier = replayOf(await findOwnLearningByClientId(ctx.db, participantId, input.client_id), hash)
    if (earlier) return { record_id: earlier.record_id, version: Number(earlier.version), duplicate: true }
    await requireSources(ctx, input.source_ids)
    const recordId = await versionTarget(ctx, participantId, input)
    const version = input.expected_version + 1
    const now = iso(ctx.now)
    await insertLearningRevision(ctx.db, {
      record_id: recordId,
      version,
      participant_id: participantId,
      lesson: input.lesson,
      feedback: input.feedback,
      revision: input.revision,
      outcome: input.outcome,
      source_ids: JSON.stringify(input.source_ids),
      memory_allowed: input.memory_allowed ? 1 : 0,
      training_allowed: input.training_allowed ? 1 : 0,
      terms_version: input.terms_version,
      client_id: input.client_id,
      payload_hash: hash,
      // Only the lesson is ever public: the labels describe what readers are handed.
      signals: storedSignals([input.lesson]),
      created_at: now,
    })
    await replaceSources(ctx.db, recordId, input.source_ids)
    return { record_id: recordId, version, duplicate: false }
  },
})

/**
 * The record the new version belongs to, checked under its row lock: created at version 1, or moved
 * to the next version with its review reset (the new text has not been reviewed).
 */
async function versionTarget(ctx: WriteContext, participantId: string, input: Input): Promise<string> {
  const existing = input.record_id === undefined ? undefined : await lockRecord(ctx.db, input.record_id)
  if (!existing) {
    if (input.expected_version !== 0) throw missingRecord(input.record_id)
    return createRecord(ctx, participantId, input.record_id ?? ctx.random.uuid())
  }
  if (existing.participant_id !== participantId) throw notOwner()
  if (existing.withdrawn_at !== null) {
    throw new ServiceError(
      'state_conflict',
      'This learning record was withdrawn; it cannot be revised. Create a new one.',
    )
  }
  const current = Number(existing.version)
  if (current !== input.expected_version) {
    throw new ServiceError(
      'version_conflict',
      `The record is at version ${current}, not ${input.expected_version}: read my_learning, merge, and retry with the current version. Nothing was changed.`,
      { details: [{ path: '/expected_version', message: 'stale version' }] },
    )
  }
  await updateRecord(ctx.db, existing.id, {
    version: current + 1,
    review: 'pending',
    lesson_id: null,
    approved_at: null,
    updated_at: iso(ctx.now),
  })
  return existing.id
}

async function createRecord(ctx: WriteContext, participantId: string, recordId: string): Promise<string> {
  const now = iso(ctx.now)
  // A concurrent create of the same record_id fails on the primary key; the retried transaction
  // then finds the record and answers version_conflict.
  await insertRecord(ctx.db, {
    id: recordId,
    seq: await nextId(ctx.db, ID_COUNTERS.learningRecords),
    participant_id: participantId,
    version: 1,
    review: 'pending',
    lesson_id: null,
    approved_at: null,
    quarantined: 0,
    withdrawn_at: null,
    created_at: now,
    updated_at: now,
  })
  return recordId
}

function missingRecord(recordId: string | undefined): ServiceError {
  if (recordId === undefined) {
    return new ServiceError(
      'invalid_request',
      'Revising a record needs its record_id; expected_version 0 creates one.',
      {
        details: [{ path: '/record_id', message: 'required when expected_version is above 0' }],
      },
    )
  }
  return new ServiceError('not_found', `No learning record ${recordId}; send expected_version 0 to create it.`, {
    details: [{ path: '/record_id', message: 'no such record' }],
  })
}

async function requireSources(ctx: ActionContext, ids: number[]): Promise<void> {
  const found = await publicContributionIds(ctx.db, ids)
  const missing = ids.filter((id) => !found.has(id))
  if (missing.length === 0) return
  throw new ServiceError('not_found', `source_ids name no contribution: ${missing.join(', ')}.`, {
    details: [{ path: '/source_ids', message: `unknown contribution ids ${missing.join(', ')}` }],
  })
}
