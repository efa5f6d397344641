import { defineAction } from '../../core/action.ts'
import { SaveSharedMemoryInput, SaveSharedMemoryResult } from '../../schemas/notes.ts'
import { whenPublic } from '../../store/publication.ts'
import { saveRevision } from '../../services/notes.ts'

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
