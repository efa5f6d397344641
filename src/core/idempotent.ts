import type { AnyAction } from './action.ts'

/** Every field an input schema can take, its variants' (anyOf, oneOf, allOf, if/then/else) included. */
export function inputFields(schema: unknown): string[] {
  if (typeof schema !== 'object' || schema === null) return []
  const s = schema as Record<string, unknown>
  const names = Object.keys((s.properties as object | undefined) ?? {})
  for (const key of ['anyOf', 'oneOf', 'allOf']) {
    if (Array.isArray(s[key])) for (const part of s[key] as unknown[]) names.push(...inputFields(part))
  }
  for (const key of ['if', 'then', 'else']) names.push(...inputFields(s[key]))
  return [...new Set(names)]
}

/**
 * Whether repeating an action with the same input has no further effect: reads, writes keyed by a
 * caller's client_id, and writes that declare it. MCP's idempotentHint and the SDK's retries follow it.
 */
export function isIdempotent(def: AnyAction): boolean {
  return def.effect === 'read' || inputFields(def.input).includes('client_id') || (def.mcp?.idempotent ?? false)
}
