import { randomUUID } from 'node:crypto'

type Schema = Record<string, unknown>

/**
 * The branch of an if/then/else input schema a given input takes (drafts: variant A or B), so fields
 * are looked up where that input's shape declares them. The `if` of our schemas only tests `required`.
 */
function branchFor(s: Schema, input: Record<string, unknown> | undefined): Schema[] {
  if (!('if' in s)) return []
  const required = ((s.if as Schema).required as string[] | undefined) ?? []
  const taken = input === undefined ? [s.then, s.else] : [required.every((f) => f in input) ? s.then : s.else]
  return taken.filter((b): b is Schema => typeof b === 'object' && b !== null)
}

/** The schema of one input field, wherever the action's input schema declares it for this input. */
export function fieldSchema(schema: unknown, field: string, input?: Record<string, unknown>): Schema | undefined {
  if (typeof schema !== 'object' || schema === null) return undefined
  const s = schema as Schema
  const own = (s.properties as Record<string, Schema> | undefined)?.[field]
  if (own && Object.keys(own).some((k) => k !== 'const')) return own
  for (const branch of branchFor(s, input)) {
    const found = fieldSchema(branch, field, input)
    if (found) return found
  }
  for (const part of (s.allOf as unknown[] | undefined) ?? []) {
    const found = fieldSchema(part, field, input)
    if (found) return found
  }
  return own
}

/** Every field an input schema declares (for this input's branch, or across all branches). */
export function fieldNames(schema: unknown, input?: Record<string, unknown>): string[] {
  if (typeof schema !== 'object' || schema === null) return []
  const s = schema as Schema
  const names = Object.keys((s.properties as object | undefined) ?? {})
  for (const branch of [...branchFor(s, input), ...((s.allOf as unknown[] | undefined) ?? [])])
    names.push(...fieldNames(branch, input))
  return [...new Set(names)]
}

/**
 * Another valid value for a field, derived from its schema: another enum member, the other boolean,
 * a neighbouring integer within bounds, changed text within its length, a fresh UUID. Undefined when
 * the schema allows no other value (a constant).
 */
export function otherValue(schema: Schema | undefined, current: unknown): unknown {
  if (!schema || 'const' in schema) return undefined
  const anyOf = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined
  if (anyOf) {
    for (const branch of anyOf) {
      const value = otherValue(branch, current)
      if (value !== undefined) return value
    }
    return undefined
  }
  if (Array.isArray(schema.enum)) return (schema.enum as unknown[]).find((v) => v !== current)
  switch (schema.type) {
    case 'boolean':
      return typeof current === 'boolean' ? !current : true
    case 'integer':
    case 'number': {
      const min = Number(schema.minimum ?? 0)
      const max = Number(schema.maximum ?? Number.MAX_SAFE_INTEGER)
      const base = typeof current === 'number' ? current : min
      return base + 1 <= max ? base + 1 : base - 1
    }
    case 'string': {
      if (schema.format === 'uuid') return randomUUID()
      const text = typeof current === 'string' ? current : 'added'
      const max = Number(schema.maxLength ?? 1000)
      const changed = `${text} (changed)`
      return changed.length <= max ? changed : `${text.slice(0, max - 1)}~`
    }
    case 'array': {
      const items = Array.isArray(current) ? [...current] : []
      const item = otherValue(schema.items as Schema, items.at(-1))
      if (item === undefined) return undefined
      if (items.length === 0) return [item]
      items[items.length - 1] = item
      return items
    }
  }
  return undefined
}
