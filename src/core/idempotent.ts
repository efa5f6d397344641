import type { AnyAction } from './action.ts'

/**
 * Whether repeating an action with the same input has no further effect: reads, writes keyed by a
 * caller's client_id, and writes that declare it. MCP's idempotentHint and the SDK's retries follow it.
 */
export function isIdempotent(def: AnyAction): boolean {
  const properties = (def.input as { properties?: Record<string, unknown> }).properties ?? {}
  return def.effect === 'read' || 'client_id' in properties || (def.mcp?.idempotent ?? false)
}
