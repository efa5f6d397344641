import { defineAction } from '../../core/action.ts'
import { ServiceError } from '../../core/errors.ts'
import { LIMITS } from '../../schemas/common.ts'
import { ThreadInput, ThreadResult } from '../../schemas/views.ts'
import { findReplyTarget, threadOf } from '../../store/contributions.ts'

export const readThread = defineAction({
  name: 'read_thread',
  summary: 'The whole conversation that a contribution belongs to, from any reply in it.',
  http: { method: 'GET', path: '/api/clearing', view: 'thread' },
  auth: 'public',
  effect: 'read',
  cacheable: true,
  input: ThreadInput,
  output: ThreadResult,
  errors: ['not_found'],
  mcp: { title: 'Read a conversation' },
  handler: async (ctx, input) => {
    const member = await findReplyTarget(ctx.db, input.contribution_id)
    if (!member) throw new ServiceError('not_found', `No contribution ${input.contribution_id}.`)
    const threadId = Number(member.thread_id)
    const limit = input.limit ?? LIMITS.thread_max
    const contributions = await threadOf(ctx.db, threadId, limit + 1)
    const root = contributions[0]
    if (!root) throw new ServiceError('not_found', `No contribution ${input.contribution_id}.`)
    return {
      thread_id: threadId,
      root,
      contributions: contributions.slice(0, limit),
      truncated: contributions.length > limit,
    }
  },
})
