import { defineAction, type WriteContext } from '../../core/action.ts'
import { iso } from '../../core/clock.ts'
import { ServiceError } from '../../core/errors.ts'
import { AppreciateInput, AppreciateResult } from '../../schemas/bookmarks.ts'
import { insertAppreciation } from '../../store/contributions/write.ts'
import { findReplyTarget } from '../../store/contributions/read.ts'
import { appreciationUsage } from '../../store/usage/write.ts'
import { recordUsage } from '../../core/activity.ts'

export const appreciate = defineAction({
  name: 'appreciate',
  summary: "Acknowledge another participant's contribution: non-financial, one per participant per contribution.",
  description: 'Your own contributions cannot be appreciated. Repeating it is harmless: it answers duplicate true.',
  http: { method: 'POST', path: '/api/clearing' },
  auth: 'participant',
  effect: 'write',
  input: AppreciateInput,
  output: AppreciateResult,
  errors: { not_found: 400 },
  examples: [(refs) => ({ key: refs.caller.key, contribution_id: refs.contributionId })],
  mcp: { name: 'appreciate_encounter', title: 'Appreciate a contribution', toolset: 'participation' },
  handler: (ctx, input) => appreciateAs(ctx, ctx.participant.id, input.contribution_id),
})

/** One participant's appreciation; shared with the publisher of keyless appreciation drafts. */
export async function appreciateAs(ctx: WriteContext, participantId: string, contributionId: number) {
  const input = { contribution_id: contributionId }
  const target = await findReplyTarget(ctx.db, input.contribution_id)
  if (!target) {
    throw new ServiceError('not_found', `No contribution ${input.contribution_id}.`, {
      details: [{ path: '/contribution_id', message: 'no such contribution' }],
    })
  }
  if (target.participant_id === participantId) {
    throw new ServiceError('invalid_request', 'You cannot appreciate your own contribution.', {
      details: [{ path: '/contribution_id', message: 'your own contribution' }],
    })
  }
  const created = await insertAppreciation(ctx.db, participantId, input.contribution_id, iso(ctx.now))
  if (created) await recordUsage(ctx, participantId, appreciationUsage)
  return { contribution_id: input.contribution_id, appreciated: true as const, duplicate: !created }
}
