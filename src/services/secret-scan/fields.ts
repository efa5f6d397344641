/**
 * The stored text fields of an action, derived from its input schema: every string that is not a
 * closed value (enum, const), not a formatted or patterned value (uuid, date, hash, address) and not
 * a caller's secret. `*` stands for every item of an array. Nothing is listed by hand but the few
 * strings that are signed protocol payloads, checked by their own rules and never stored as text.
 */
const NOT_TEXT = new Set([
  // rotate_key: a secret by purpose; only its digest is stored.
  'new_key',
  // sign_in: the EIP-4361 message, verified by its signature; pay: the x402 payment payload.
  'message',
  'payment_signature',
])

type Schema = Record<string, unknown>

export function storedTextPaths(input: unknown, credentials: readonly string[]): string[] {
  const paths = new Set<string>()
  walk(input, '', (path, name) => {
    if (!credentials.includes(name) && !NOT_TEXT.has(name)) paths.add(path)
  })
  return [...paths].sort()
}

function walk(schema: unknown, path: string, found: (path: string, name: string) => void, name = ''): void {
  if (typeof schema !== 'object' || schema === null) return
  const s = schema as Schema
  for (const key of ['anyOf', 'oneOf', 'allOf']) {
    if (Array.isArray(s[key])) for (const part of s[key] as unknown[]) walk(part, path, found, name)
  }
  for (const key of ['if', 'then', 'else']) walk(s[key], path, found, name)
  if (typeof s.properties === 'object' && s.properties !== null) {
    for (const [child, sub] of Object.entries(s.properties as Schema)) walk(sub, `${path}/${child}`, found, child)
  }
  if (s.items !== undefined) walk(s.items, `${path}/*`, found, name)
  if (isFreeString(s) && path !== '') found(path, name)
}

function isFreeString(s: Schema): boolean {
  const string = s.type === 'string' || (Array.isArray(s.type) && s.type.includes('string'))
  return string && s.enum === undefined && s.const === undefined && s.format === undefined && s.pattern === undefined
}

/** The texts an input holds at the given paths, each with its JSON pointer (`/content`, `/tags/2`). */
export function textsAt(input: unknown, paths: readonly string[]): Array<{ path: string; text: string }> {
  const out: Array<{ path: string; text: string }> = []
  for (const path of paths) collect(input, segmentsOf(path), '', out)
  return out
}

// The paths are the registry's, a fixed few: split once each.
const SEGMENTS = new Map<string, string[]>()
function segmentsOf(path: string): string[] {
  let segments = SEGMENTS.get(path)
  if (!segments) SEGMENTS.set(path, (segments = path.split('/').slice(1)))
  return segments
}

function collect(value: unknown, rest: string[], at: string, out: Array<{ path: string; text: string }>): void {
  if (rest.length === 0) {
    if (typeof value === 'string' && value !== '') out.push({ path: at, text: value })
    return
  }
  const [head, ...tail] = rest as [string, ...string[]]
  if (head === '*') {
    if (Array.isArray(value)) value.forEach((item, i) => collect(item, tail, `${at}/${i}`, out))
    return
  }
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    collect((value as Record<string, unknown>)[head], tail, `${at}/${head}`, out)
  }
}

/** Texts a write that failed validation holds, of any shape (bounded by the body limit), credentials aside. */
export function everyText(input: unknown, credentials: readonly string[]): Array<{ path: string; text: string }> {
  const out: Array<{ path: string; text: string }> = []
  const visit = (value: unknown, at: string, depth: number): void => {
    if (typeof value === 'string') {
      if (value !== '') out.push({ path: at, text: value })
    } else if (Array.isArray(value)) {
      if (depth < 8) value.forEach((item, i) => visit(item, `${at}/${i}`, depth + 1))
    } else if (typeof value === 'object' && value !== null && depth < 8) {
      for (const [key, item] of Object.entries(value)) {
        if (depth === 0 && (credentials.includes(key) || NOT_TEXT.has(key))) continue
        visit(item, `${at}/${key}`, depth + 1)
      }
    }
  }
  visit(input, '', 0)
  return out
}
