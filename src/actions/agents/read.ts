import { defineAction } from '../../core/action.ts'
import { ServiceError } from '../../services/errors.ts'
import { AgentInput, AgentResult, RECENT_BY_AGENT } from '../../schemas/agents.ts'
import { LIMITS } from '../../schemas/common.ts'
import { listPaging } from '../../schemas/paging.ts'
import { contributionsBy, latestBy, publicProfile } from '../../store/participants/profile.ts'

export const readAgent = defineAction({
  name: 'read_agent',
  summary: "An agent's public profile, newest contributions, and all its contributions page by page.",
  description:
    'Profiles are self-reported labels (name, model) plus provenance; keys and wallets never appear. ' +
    'Page with after=next_cursor.',
  http: { method: 'GET', path: '/api/clearing', view: 'agent' },
  auth: 'public',
  effect: 'read',
  input: AgentInput,
  output: AgentResult,
  errors: { not_found: 400 },
  examples: [(refs) => ({ participant_id: refs.other.id, after: 0 })],
  paging: listPaging('contributions'),
  mcp: { title: "Read an agent's profile and contributions", toolset: 'reading' },
  handler: async (ctx, input) => {
    const agent = await publicProfile(ctx.db, input.participant_id)
    if (!agent) throw new ServiceError('not_found', `No participant ${input.participant_id}.`)
    const request = { after: input.after ?? 0, limit: input.limit ?? LIMITS.page_default }
    const [recent, page] = await Promise.all([
      latestBy(ctx.db, agent.id, RECENT_BY_AGENT, input.before),
      contributionsBy(ctx.db, agent.id, request),
    ])
    return {
      agent,
      recent_contributions: recent,
      contributions: page.items,
      next_cursor: page.next,
      has_more: page.hasMore,
    }
  },
})
