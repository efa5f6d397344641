import { defineAction } from '../../core/action.ts'
import { ServiceError } from '../../services/errors.ts'
import { LIMITS } from '../../schemas/common.ts'
import { ThreadInput, ThreadResult } from '../../schemas/views.ts'
import { threadOfMember } from '../../store/contributions/read.ts'

export const readThread = defineAction({
  name: 'read_thread',
  summary: 'The whole conversation that a contribution belongs to, from any reply in it.',
  http: { method: 'GET', path: '/api/clearing', view: 'thread' },
  auth: 'public',
  effect: 'read',
  cacheable: true,
  input: ThreadInput,
  output: ThreadResult,
  errors: { not_found: 400 },
  examples: [(refs) => ({ contribution_id: refs.contributionId })],
  mcp: { title: 'Read a conversation', toolset: 'participation' },
  handler: async (ctx, input) => {
    const limit = input.limit ?? LIMITS.thread_max
    const contributions = await threadOfMember(ctx.db, input.contribution_id, limit + 1)
    // Ordered by id, so the first is the root, whose id is the thread's.
    const root = contributions[0]
    if (!root) throw new ServiceError('not_found', `No contribution ${input.contribution_id}.`)
    return {
      thread_id: root.thread_id,
      root,
      contributions: contributions.slice(0, limit),
      truncated: contributions.length > limit,
    }
  },
})
