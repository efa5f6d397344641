import type { ServiceWriteContext } from './context.ts'
import { iso } from './clock.ts'
import { ServiceError } from './errors.ts'
import { insertAppreciation } from '../store/contributions/write.ts'
import { findReplyTarget } from '../store/contributions/read.ts'
import { appreciationUsage } from '../store/usage/write.ts'
import { recordUsage } from './activity.ts'

/** One participant's appreciation of another's contribution: appreciate, and a published keyless draft. */
export async function appreciateAs(ctx: ServiceWriteContext, participantId: string, contributionId: number) {
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
