import type { AnyAction } from './action.ts'
import type { ErrorCode } from './errors.ts'

/**
 * Every error an action can answer with: what its handler declares plus what the pipeline itself
 * refuses with, derived from the action's binding, auth and effect. OpenAPI, MCP and the descriptor
 * publish this list, and the pipeline (in contract-checking mode) refuses to throw anything else.
 */
export function publishedErrors(def: AnyAction): ErrorCode[] {
  const codes = new Set<ErrorCode>(def.errors)
  // Every input is validated (schema, text well-formedness, integer bounds).
  codes.add('invalid_request')
  if (def.http.method === 'POST') codes.add('payload_too_large')
  if (def.effect === 'write' && def.auth !== 'operator') codes.add('writes_paused')
  if (def.auth === 'operator' || def.auth === 'review') codes.add('operator_only')
  if (def.auth === 'participant') {
    // Wrong keys are throttled per abuse bucket (core/key-guard.ts), so rate_limited is always possible.
    for (const code of ['invalid_key', 'key_revoked', 'rate_limited'] as const) codes.add(code)
    if (def.effect === 'write') codes.add('participant_suspended')
    if (!def.allowPaused) codes.add('participant_paused')
  }
  return [...codes].sort()
}
