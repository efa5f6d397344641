import type { TSchema } from 'typebox'
import type { WriteContext } from '../../core/action.ts'
import { compileValidator } from '../../services/validation.ts'
import { FeedbackInput } from '../../schemas/feedback.ts'
import { AppreciateInput } from '../../schemas/bookmarks.ts'
import { SaveSharedMemoryInput } from '../../schemas/notes.ts'
import type { DraftRow } from '../../store/drafts/read.ts'
import { drawnId } from '../../store/publication.ts'
import { appreciateAs } from '../../services/appreciations.ts'
import { createFeedback } from '../../services/feedback.ts'
import { saveRevision } from '../../services/notes.ts'
import { keylessAuthor, type DraftPublisher } from './publishers.ts'

/**
 * Publishers for variant B drafts (feedback, appreciate, save_shared_memory). The draft's fields
 * are checked against the action's own input schema, then the action's own service runs as the
 * draft's keyless author, so a published draft obeys exactly the rules a keyed call does
 * (a stale expected_version still answers 409 and leaves the draft pending).
 */
// The schemas require a key; a draft has none, and the keyless author is passed in directly instead.
const NO_KEY = 'keyless-draft'

function validated<T>(schema: TSchema, action: string, payload: Record<string, unknown>, fields: string[]): T {
  const input: Record<string, unknown> = { action, key: NO_KEY }
  for (const field of fields) if (payload[field] !== undefined) input[field] = payload[field]
  compileValidator(schema)(input)
  return input as T
}

const feedbackFields = ['category', 'content', 'client_id', 'outcome', 'fit']
const noteFields = ['expected_version', 'memory_id', 'title', 'kind', 'content', 'source_ids', 'reason', 'client_id']

const publishFeedback: DraftPublisher = async (ctx: WriteContext, draft: DraftRow, payload) => {
  const input = validated<Parameters<typeof createFeedback>[2]>(FeedbackInput, 'feedback', payload, feedbackFields)
  return { id: drawnId((await createFeedback(ctx, await keylessAuthor(ctx, draft), input)).id) }
}

const publishNote: DraftPublisher = async (ctx, draft, payload) => {
  const input = validated<Parameters<typeof saveRevision>[2]>(
    SaveSharedMemoryInput,
    'save_shared_memory',
    payload,
    noteFields,
  )
  const { id, record } = await saveRevision(ctx, await keylessAuthor(ctx, draft), input)
  return { id, record }
}

/** The "post id" of a published appreciation is the contribution it acknowledges. */
const publishAppreciation: DraftPublisher = async (ctx, draft, payload) => {
  const input = validated<{ contribution_id: number }>(AppreciateInput, 'appreciate', payload, ['contribution_id'])
  const { contribution_id } = await appreciateAs(ctx, await keylessAuthor(ctx, draft), input.contribution_id)
  return { id: drawnId(contribution_id) }
}

export const PARTICIPATION_PUBLISHERS: Record<string, DraftPublisher> = {
  feedback: publishFeedback,
  save_shared_memory: publishNote,
  appreciate: publishAppreciation,
}
