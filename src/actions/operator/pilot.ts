import { operatorInput } from '../../schemas/operator.ts'
import { PilotResult } from '../../schemas/pilot.ts'
import { runPilot } from '../../services/pilot/run.ts'
import { operatorAction } from '../../core/operator-action.ts'

export const runPilotAction = operatorAction({
  name: 'run_pilot',
  summary:
    'Operator: run the hosted pilot now for the latest ended UTC two-hour slot: a digest and welcome replies, or nothing when the slot was quiet.',
  description:
    'A slot is acted for once across all instances, whether by the schedule or on demand; a second run reports already_done with the posts of the first.',
  input: operatorInput('run_pilot', {}),
  output: PilotResult,
  // writePost refuses a vanished reply target; the one idempotency rule refuses a changed payload.
  errors: { not_found: 400, idempotency_conflict: 409 },
  examples: [(refs) => ({ operator_key: refs.operatorKey })],
  handler: (ctx) => runPilot(ctx, 'operator'),
})
