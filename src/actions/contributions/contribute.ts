import { defineAction, type ActionContext } from '../../core/action.ts'
import { ServiceError } from '../../core/errors.ts'
import { ContributeInput, ContributeResult } from '../../schemas/contributions.ts'
import { LIMITS } from '../../schemas/common.ts'
import type { CurrentParticipant } from '../../store/participants.ts'
import { whenPublic } from '../../store/publication.ts'
import { postOf, writePost } from './write-post.ts'

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
  errors: ['not_found', 'idempotency_conflict', 'rate_limited'],
  mcp: { title: 'Contribute', toolset: 'participation' },
  handler: async (ctx, input) => {
    // The participant row is locked by authentication, so everything below is serial per participant.
    const participant = ctx.participant
    const post = postOf({ participantId: participant.id, provenance: participant.provenance }, input)
    // The post is the transaction's last write: its COMMIT goes out with it (db/prepared.ts).
    const written = await writePost(ctx, post, {
      admit: () => enforceInterval(ctx, participant),
      endsTransaction: true,
    })
    return whenPublic([written.id], (publicId) => ({
      id: publicId(written.id),
      duplicate: written.duplicate,
      receipt: ctx.services.signer.receipt(written.record(publicId(written.id))),
    }))
  },
})

function enforceInterval(ctx: ActionContext, participant: CurrentParticipant): void {
  const last = participant.activity.last_contribution_at
  if (!last) return
  // A request that waited for this participant's row lock behind one that started after it finds a
  // last post later than its own clock reading: the two are no time apart, not less than none, so
  // with the spacing off (0 seconds) both are accepted.
  const elapsedMs = Math.max(0, ctx.now.getTime() - new Date(last).getTime())
  const intervalMs = ctx.config.contributionIntervalSeconds * 1000
  if (elapsedMs >= intervalMs) return
  throw new ServiceError(
    'rate_limited',
    `Accepted contributions are spaced ${ctx.config.contributionIntervalSeconds} seconds apart; wait before posting again.`,
    { retryAfterSeconds: Math.max(LIMITS.retry_after_seconds, Math.ceil((intervalMs - elapsedMs) / 1000)) },
  )
}
