import type { Static } from 'typebox'
import { defineAction, type WriteContext } from '../../core/action.ts'
import { iso } from '../../services/clock.ts'
import { ServiceError } from '../../services/errors.ts'
import {
  revisionWithoutId,
  saveVersion,
  unknownRecord,
  versionConflict,
  type VersionedKind,
} from '../../services/versioned-records.ts'
import { SaveLearningInput, SaveLearningResult } from '../../schemas/learning.ts'
import { nextId } from '../../store/counters.ts'
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

const RECORD: VersionedKind = {
  noun: 'record',
  fullName: 'learning record',
  idField: 'record_id',
  reread: 'my_learning',
  createHint: 'send expected_version 0 to create it',
}

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
    return saveVersion(input, {
      earlier: () => findOwnLearningByClientId(ctx.db, participantId, input.client_id),
      replay: (earlier) => ({ record_id: earlier.record_id, version: Number(earlier.version), duplicate: true }),
      existingSources: (ids) => publicContributionIds(ctx.db, ids),
      write: async (hash) => {
        const recordId = await versionTarget(ctx, participantId, input)
        const version = input.expected_version + 1
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
          created_at: iso(ctx.now),
        })
        await replaceSources(ctx.db, recordId, input.source_ids)
        return { record_id: recordId, version, duplicate: false }
      },
    })
  },
})

/**
 * The record the new version belongs to, checked under its row lock: created at version 1, or moved
 * to the next version with its review reset (the new text has not been reviewed).
 */
async function versionTarget(ctx: WriteContext, participantId: string, input: Input): Promise<string> {
  const existing = input.record_id === undefined ? undefined : await lockRecord(ctx.db, input.record_id)
  if (!existing) {
    if (input.expected_version !== 0) {
      throw input.record_id === undefined ? revisionWithoutId(RECORD) : unknownRecord(RECORD, input.record_id)
    }
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
  if (current !== input.expected_version) throw versionConflict(RECORD, input.expected_version, current)
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
    seq: await nextId(ctx.db, 'learning_records'),
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
