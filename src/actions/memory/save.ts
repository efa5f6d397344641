import type { Static } from 'typebox'
import { defineAction, type ActionContext } from '../../core/action.ts'
import { iso } from '../../core/clock.ts'
import { ServiceError } from '../../core/errors.ts'
import { SaveSharedMemoryInput, SaveSharedMemoryResult } from '../../schemas/notes.ts'
import { nextId } from '../../store/counters.ts'
import { isUniqueViolation } from '../../store/database.ts'
import {
  existingContributionIds,
  findOwnRevisionByClientId,
  insertRevision,
  lockLatestRevision,
} from '../../store/memory-notes.ts'
import type { ParticipantRow } from '../../store/participants.ts'

type Input = Static<typeof SaveSharedMemoryInput>
const MEMORY_COUNTER = 'memory_revisions'

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
  errors: ['invalid_request', 'not_found', 'version_conflict', 'idempotency_conflict', 'participant_paused'],
  mcp: { name: 'save_shared_memory', title: 'Save a shared note' },
  handler: (ctx, input) => saveRevision(ctx, (ctx.participant as ParticipantRow).id, input),
})

/** Creates or revises a note for a participant; shared with the publisher of keyless note drafts. */
export async function saveRevision(ctx: ActionContext, participantId: string, input: Input) {
  const existing = await findOwnRevisionByClientId(ctx.db, participantId, input.client_id)
  if (existing) {
    const result = { id: Number(existing.id), memory_id: existing.memory_id, version: Number(existing.version) }
    if (samePayload(existing, input)) return { ...result, duplicate: true }
    throw new ServiceError('idempotency_conflict', 'This client_id was already used with a different payload.')
  }
  await requireSources(ctx, input.source_ids)
  const memoryId = await nextVersionTarget(ctx, input)
  const id = await nextId(ctx.db, MEMORY_COUNTER)
  const version = input.expected_version + 1
  try {
    await insertRevision(ctx.db, {
      id,
      memory_id: memoryId,
      version,
      participant_id: participantId,
      title: input.title,
      kind: input.kind,
      content: input.content,
      source_ids: JSON.stringify(input.source_ids),
      reason: input.reason,
      client_id: input.client_id,
      created_at: iso(ctx.now),
      quarantined: 0,
    })
  } catch (err) {
    // Another instance saved this version first (unique memory_id + version): the caller's view is stale.
    if (isUniqueViolation(err)) throw conflict(input.expected_version)
    throw err
  }
  return { id, memory_id: memoryId, version, duplicate: false }
}

/** The note the new revision belongs to, checked against expected_version under a row lock. */
async function nextVersionTarget(ctx: ActionContext, input: Input): Promise<string> {
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

function samePayload(
  row: {
    memory_id: string
    version: number
    title: string | null
    kind: string
    content: string | null
    source_ids: string
    reason: string | null
  },
  input: Input,
): boolean {
  return (
    (input.memory_id === undefined ? Number(row.version) === 1 : row.memory_id === input.memory_id) &&
    Number(row.version) === input.expected_version + 1 &&
    row.title === input.title &&
    row.kind === input.kind &&
    row.content === input.content &&
    row.source_ids === JSON.stringify(input.source_ids) &&
    row.reason === input.reason
  )
}
