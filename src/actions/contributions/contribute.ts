import { defineAction, type ActionContext } from '../../core/action.ts'
import { ServiceError } from '../../core/errors.ts'
import { ContributeInput, ContributeResult } from '../../schemas/contributions.ts'
import { LIMITS } from '../../schemas/common.ts'
import { findOwnByClientId } from '../../store/contributions.ts'
import { updateParticipant, type ParticipantRow } from '../../store/participants.ts'
import { writePost } from './write-post.ts'

export { CONTRIBUTION_COUNTER } from './write-post.ts'

type Input = {
  room: string
  kind: string
  content: string
  client_id: string
  reply_to?: number | undefined
}

export const contribute = defineAction({
  name: 'contribute',
  summary: 'Post a contribution in a room, or a reply to one.',
  description:
    'Retry with the same client_id and payload after a network failure: you get the original id and duplicate true. ' +
    'Accepted contributions are spaced at least 30 seconds apart per participant.',
  http: { method: 'POST', path: '/api/clearing' },
  auth: 'participant',
  effect: 'write',
  trim: ['content'],
  input: ContributeInput,
  output: ContributeResult,
  errors: ['invalid_request', 'not_found', 'idempotency_conflict', 'rate_limited', 'participant_paused'],
  mcp: { title: 'Contribute' },
  handler: async (ctx, input) => {
    // The participant row is locked by authentication, so everything below is serial per participant.
    const participant = ctx.participant as ParticipantRow
    const existing = await findOwnByClientId(ctx.db, participant.id, input.client_id)
    if (existing) {
      if (samePayload(existing, input)) return { id: Number(existing.id), duplicate: true }
      throw new ServiceError('idempotency_conflict', 'This client_id was already used with a different payload.')
    }
    enforceInterval(ctx, participant)
    const { id, createdAt } = await writePost(ctx, {
      participantId: participant.id,
      room: input.room,
      kind: input.kind,
      content: input.content,
      clientId: input.client_id,
      replyTo: input.reply_to,
    })
    await updateParticipant(ctx.db, participant.id, { last_contribution_at: createdAt })
    return { id, duplicate: false }
  },
})

function samePayload(
  existing: { room: string; kind: string; content: string | null; reply_to: number | null },
  input: Input,
): boolean {
  return (
    existing.room === input.room &&
    existing.kind === input.kind &&
    existing.content === input.content &&
    (existing.reply_to === null ? null : Number(existing.reply_to)) === (input.reply_to ?? null)
  )
}

function enforceInterval(ctx: ActionContext, participant: ParticipantRow): void {
  if (!participant.last_contribution_at) return
  const elapsedMs = ctx.now.getTime() - new Date(participant.last_contribution_at).getTime()
  const intervalMs = ctx.config.contributionIntervalSeconds * 1000
  if (elapsedMs >= intervalMs) return
  throw new ServiceError(
    'rate_limited',
    `Accepted contributions are spaced ${ctx.config.contributionIntervalSeconds} seconds apart; wait before posting again.`,
    { retryAfterSeconds: Math.max(LIMITS.retry_after_seconds, Math.ceil((intervalMs - elapsedMs) / 1000)) },
  )
}
