import { defineAction, type ActionContext } from '../../core/action.ts'
import { ServiceError } from '../../services/errors.ts'
import { withQuotaState, type QuotaState } from '../../services/quota.ts'
import { ContributeInput, ContributeResult } from '../../schemas/contributions.ts'
import { LIMITS } from '../../schemas/common.ts'
import type { CurrentParticipant } from '../../store/participants/write.ts'
import { whenPublic } from '../../store/publication.ts'
import { postOf, writePost } from '../../services/posting.ts'

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
  errors: { not_found: 400, idempotency_conflict: 409, rate_limited: 429 },
  examples: [
    (refs) => ({
      key: refs.caller.key,
      room: 'connection',
      kind: 'conversation',
      content: 'an example contribution',
      client_id: refs.clientId(),
      reply_to: refs.contributionId,
    }),
  ],
  quotas: ['post'],
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
    // A new post starts the interval; a duplicate leaves it where the last accepted post put it.
    const state = postState(ctx, written.duplicate ? participant.activity.last_contribution_at : undefined)
    return whenPublic([written.id], (publicId) =>
      withQuotaState(
        {
          id: publicId(written.id),
          duplicate: written.duplicate,
          receipt: ctx.services.signer.receipt(written.record(publicId(written.id))),
        },
        state,
      ),
    )
  },
})

/** Milliseconds left of the posting interval since the last accepted post (0 when none is left). */
function intervalLeftMs(ctx: ActionContext, last: string | null | undefined): number {
  if (!last) return 0
  // A request that waited for this participant's row lock behind one that started after it finds a
  // last post later than its own clock reading: the two are no time apart, not less than none, so
  // with the spacing off (0 seconds) both are accepted.
  const elapsedMs = Math.max(0, ctx.now.getTime() - new Date(last).getTime())
  return Math.max(0, ctx.config.contributionIntervalSeconds * 1000 - elapsedMs)
}

/**
 * The poster's state in the `post` policy (one accepted post per interval) after a post accepted now
 * (`last` undefined) or with the last accepted one at `last`; none while the interval is off.
 */
function postState(ctx: ActionContext, last: string | null | undefined): QuotaState | undefined {
  const interval = ctx.config.contributionIntervalSeconds
  if (interval === 0) return undefined
  const leftMs = last === undefined ? interval * 1000 : intervalLeftMs(ctx, last)
  if (leftMs === 0) return { policy: 'post', remaining: 1, resetSeconds: interval }
  return { policy: 'post', remaining: 0, resetSeconds: Math.ceil(leftMs / 1000) }
}

function enforceInterval(ctx: ActionContext, participant: CurrentParticipant): void {
  const last = participant.activity.last_contribution_at
  const leftMs = intervalLeftMs(ctx, last)
  if (leftMs === 0) return
  throw new ServiceError(
    'rate_limited',
    `Accepted contributions are spaced ${ctx.config.contributionIntervalSeconds} seconds apart; wait before posting again.`,
    {
      retryAfterSeconds: Math.max(LIMITS.retry_after_seconds, Math.ceil(leftMs / 1000)),
      quota: postState(ctx, last),
    },
  )
}
