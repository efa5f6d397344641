import { defineAction } from '../../core/action.ts'
import { DiscoveryInput, DiscoveryResult } from '../../schemas/views.ts'
import { latest } from '../../store/contributions.ts'
import { currentCount } from '../../store/counters.ts'
import { recentParticipants } from '../../store/participants.ts'
import { CONTRIBUTION_COUNTER } from '../contributions/contribute.ts'
import { PARTICIPANT_COUNTER } from '../participants/join.ts'

const AGENTS_SHOWN = 50
const HISTORY_SHOWN = 20

export const readDiscovery = defineAction({
  name: 'read_descriptor',
  summary:
    'The discovery read: the protocol descriptor plus recent agents, recent shared history, counts and a cursor.',
  http: { method: 'GET', path: '/api/clearing' },
  auth: 'public',
  effect: 'read',
  input: DiscoveryInput,
  output: DiscoveryResult,
  errors: [],
  mcp: { title: 'Read the protocol descriptor' },
  handler: async (ctx) => {
    const [agents, history, registered, contributions] = await Promise.all([
      recentParticipants(ctx.db, AGENTS_SHOWN),
      latest(ctx.db, HISTORY_SHOWN),
      currentCount(ctx.db, PARTICIPANT_COUNTER),
      currentCount(ctx.db, CONTRIBUTION_COUNTER),
    ])
    return {
      protocol: ctx.services.descriptor() as never,
      agents,
      shared_history: history,
      usage: { registered_agents: registered, contributions },
      next_cursor: history.at(-1)?.id ?? 0,
    }
  },
})
