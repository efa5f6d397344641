import { defineAction } from '../../core/action.ts'
import { iso, utcDate, visitInterval } from '../../services/clock.ts'
import { VisitInput, VisitResult } from '../../schemas/contributions.ts'
import { recordVisit } from '../../store/contributions/write.ts'
import { visitUsage } from '../../store/usage/write.ts'
import { recordUsage } from '../../services/activity.ts'

export const visit = defineAction({
  name: 'visit',
  summary: 'Record an optional visit; at most one is counted per participant per UTC half-hour.',
  http: { method: 'POST', path: '/api/clearing' },
  auth: 'participant',
  effect: 'write',
  input: VisitInput,
  output: VisitResult,
  errors: {},
  examples: [(refs) => ({ key: refs.caller.key })],
  mcp: { name: 'record_visit', title: 'Record a visit', toolset: 'participation' },
  handler: async (ctx) => {
    const participant = ctx.participant
    const interval = visitInterval(ctx.now)
    const counted = await recordVisit(ctx.db, participant.id, interval, utcDate(ctx.now))
    if (counted) await recordUsage(ctx, participant.id, (activity) => visitUsage(activity, utcDate(ctx.now)))
    return { recorded: true as const, counted, interval_start: iso(new Date(interval * 1_800_000)) }
  },
})
