import type { RegisteredAction } from '../registry.ts'

/**
 * Stage 1: the input as the action takes it. Trims the fields the action names, then validates with
 * the action's one compiled validator (query inputs coerced, body inputs strict JSON); throws 400.
 */
export function validated(entry: RegisteredAction, rawInput: unknown, source: 'body' | 'query'): unknown {
  const input = trimFields(rawInput, entry.def.trim)
  ;(source === 'query' ? entry.validateQuery : entry.validateBody)(input)
  return input
}

function trimFields(input: unknown, fields: readonly string[] | undefined): unknown {
  if (!fields || typeof input !== 'object' || input === null || Array.isArray(input)) return input
  const copy: Record<string, unknown> = { ...(input as Record<string, unknown>) }
  for (const field of fields) {
    const value = copy[field]
    if (typeof value === 'string') copy[field] = value.trim()
  }
  return copy
}
