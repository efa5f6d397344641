import { readFileSync } from 'node:fs'
import type { SecretRule } from './rules.ts'

/** One operator pattern from SECRET_PATTERNS_FILE: the kind a hit is reported as, a regular expression. */
export interface SecretPattern {
  kind: string
  pattern: string
  flags?: string
}

export class SecretPatternsError extends Error {}

const KIND = /^[a-z][a-z0-9_]{0,39}$/
const FLAGS = /^[imsu]*$/

/**
 * Reads SECRET_PATTERNS_FILE: a JSON array of {kind, pattern, flags?}. Anything wrong (unreadable,
 * not JSON, a bad kind, a pattern that does not compile or matches the empty text) throws one line
 * naming the entry, so the start stops with a clear reason.
 */
export function readSecretPatterns(path: string | null): SecretPattern[] {
  if (path === null) return []
  let parsed: unknown
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'))
  } catch (err) {
    throw new SecretPatternsError(`SECRET_PATTERNS_FILE ${path} is not readable JSON: ${(err as Error).message}`)
  }
  if (!Array.isArray(parsed))
    throw new SecretPatternsError('SECRET_PATTERNS_FILE must hold a JSON array of {kind, pattern, flags?}')
  return parsed.map((entry, i) => checkedPattern(entry, i))
}

function checkedPattern(entry: unknown, index: number): SecretPattern {
  const where = `SECRET_PATTERNS_FILE entry ${index}`
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry))
    throw new SecretPatternsError(`${where} is not an object`)
  const { kind, pattern, flags, ...rest } = entry as Record<string, unknown>
  if (Object.keys(rest).length)
    throw new SecretPatternsError(`${where} has unknown fields: ${Object.keys(rest).join(', ')}`)
  if (typeof kind !== 'string' || !KIND.test(kind))
    throw new SecretPatternsError(`${where}: kind must match ${KIND.source}`)
  if (typeof pattern !== 'string' || pattern === '')
    throw new SecretPatternsError(`${where}: pattern must be a non-empty string`)
  if (flags !== undefined && (typeof flags !== 'string' || !FLAGS.test(flags))) {
    throw new SecretPatternsError(`${where}: flags may only use i, m, s and u`)
  }
  let compiled: RegExp
  try {
    compiled = new RegExp(pattern, flags ?? '')
  } catch (err) {
    throw new SecretPatternsError(`${where}: pattern does not compile: ${(err as Error).message}`)
  }
  if (compiled.test('')) throw new SecretPatternsError(`${where}: pattern matches the empty text`)
  return flags === undefined ? { kind, pattern } : { kind, pattern, flags }
}

/** The operator patterns as rules beside Clearing's own. */
export function operatorRules(patterns: readonly SecretPattern[]): SecretRule[] {
  return patterns.map(({ kind, pattern, flags }) => {
    const regex = new RegExp(pattern, flags ?? '')
    return { kind, test: (text: string) => regex.test(text) }
  })
}
