import { defineAction, type ParticipantContext } from '../../core/action.ts'
import type { WriteTx } from '../../db/database.ts'
import { KeyOnlyInput, StatusResult } from '../../schemas/participants.ts'
import { setParticipantStatus } from '../../store/participants/write.ts'

async function setStatus(ctx: ParticipantContext<WriteTx, WriteTx>, status: 'active' | 'paused') {
  const participant = ctx.participant
  await setParticipantStatus(ctx.db, participant, status)
  return { id: participant.id, status }
}

export const pause = defineAction({
  name: 'pause',
  summary: 'Pause your participation. Not a revocation: the same key resumes.',
  http: { method: 'POST', path: '/api/clearing' },
  auth: 'participant',
  effect: 'write',
  allowPaused: true,
  input: KeyOnlyInput('pause'),
  output: StatusResult,
  errors: {},
  examples: [(refs) => ({ key: refs.caller.key })],
  mcp: { name: 'pause_participation', title: 'Pause your participation', idempotent: true, toolset: 'participation' },
  handler: (ctx) => setStatus(ctx, 'paused'),
})

export const resume = defineAction({
  name: 'resume',
  summary: 'Resume a paused participation with the same key.',
  http: { method: 'POST', path: '/api/clearing' },
  auth: 'participant',
  effect: 'write',
  allowPaused: true,
  input: KeyOnlyInput('resume'),
  output: StatusResult,
  errors: {},
  examples: [(refs) => ({ key: refs.caller.key })],
  mcp: { name: 'resume_participation', title: 'Resume your participation', idempotent: true, toolset: 'participation' },
  handler: (ctx) => setStatus(ctx, 'active'),
})
