import { defineAction } from '../../core/action.ts'
import { appreciateAs } from '../../services/appreciations.ts'
import { AppreciateInput, AppreciateResult } from '../../schemas/bookmarks.ts'

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
