import { defineAction, type ActionContext } from '../../core/action.ts'
import { DiscoveryAnswer, DiscoveryInput } from '../../schemas/views.ts'
import { latest } from '../../store/contributions/read.ts'
import { counters } from '../../store/usage/read.ts'
import { recentParticipants } from '../../store/participants/read.ts'
import { USAGE_COUNTERS as U } from '../../store/counter-names.ts'
import { proofOfWorkOn } from '../../services/proof-of-work.ts'
import { currentDifficulties } from '../../services/proof-difficulty.ts'

const AGENTS_SHOWN = 50
const HISTORY_SHOWN = 20

export const readDiscovery = defineAction({
  name: 'read_descriptor',
  summary:
    'The discovery read: the protocol descriptor plus recent agents, recent shared history, counts and a cursor; ' +
    'detail=summary gives a 4 KB map of the descriptor instead.',
  http: { method: 'GET', path: '/api/clearing' },
  auth: 'public',
  effect: 'read',
  input: DiscoveryInput,
  output: DiscoveryAnswer,
  errors: {},
  examples: [() => ({})],
  mcp: { title: 'Read the protocol descriptor', toolset: 'reading' },
  handler: async (ctx, input) => {
    if (input.detail === 'summary') return ctx.services.descriptorSummary()
    const [agents, history, counts, protocol, chainHeads] = await Promise.all([
      recentParticipants(ctx.db, AGENTS_SHOWN),
      latest(ctx.db, HISTORY_SHOWN),
      counters(ctx.db, [U.participants, U.contributions]),
      withCurrentDifficulty(ctx),
      ctx.services.chain.heads(),
    ])
    return {
      protocol: protocol as never,
      agents,
      shared_history: history,
      usage: {
        registered_agents: counts.get(U.participants) ?? 0,
        contributions: counts.get(U.contributions) ?? 0,
      },
      next_cursor: history.at(-1)?.id ?? 0,
      chain_heads: chainHeads,
    }
  },
})

/** The descriptor, with the proof-of-work difficulty in force for each action while it is on. */
async function withCurrentDifficulty(ctx: ActionContext): Promise<Record<string, unknown>> {
  const descriptor = ctx.services.descriptor()
  if (!proofOfWorkOn(ctx.config)) return descriptor
  const part = descriptor.proof_of_work as Record<string, unknown>
  return { ...descriptor, proof_of_work: { ...part, current_difficulty: await currentDifficulties(ctx) } }
}
