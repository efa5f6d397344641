import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv'
import addFormatsModule from 'ajv-formats'
import type { TSchema } from 'typebox'
import { ServiceError, type ErrorDetail } from './errors.ts'

// ajv-formats is CommonJS; under Node's ESM loader its default export sits one level down.
type AddFormats = (ajv: Ajv, formats: string[]) => Ajv
const addFormats = ((addFormatsModule as unknown as { default?: AddFormats }).default ??
  addFormatsModule) as unknown as AddFormats

/**
 * One Ajv configuration for every transport. Bodies are validated strictly (no coercion, unknown
 * fields rejected by the schemas); query strings go through a second instance that coerces "5" -> 5,
 * because a URL carries only text.
 */
function makeAjv(coerceTypes: boolean): Ajv {
  const ajv = new Ajv({ allErrors: true, strict: false, coerceTypes, useDefaults: false })
  addFormats(ajv, ['uuid', 'date-time', 'uri'])
  return ajv
}

const bodyAjv = makeAjv(false)
const queryAjv = makeAjv(true)

export type Validator = (value: unknown) => void

/**
 * `body` and `query` validate what callers send (and then its text, see storableProblem); `output`
 * checks what an action returns against its declared schema (tests run with contracts checked).
 */
export function compileValidator(schema: TSchema, source: 'body' | 'query' | 'output' = 'body'): Validator {
  const validate: ValidateFunction = (source === 'query' ? queryAjv : bodyAjv).compile(schema)
  return (value) => {
    if (!validate(value)) {
      const errors = relevant(validate.errors ?? [])
      throw new ServiceError('invalid_request', summarize(errors), { details: dedupe(errors.map(describe)) })
    }
    if (source === 'output') return
    const problem = storableProblem(value, '', 0)
    if (problem)
      throw new ServiceError('invalid_request', `Invalid request: ${problem.path} ${problem.message}.`, {
        details: [problem],
      })
  }
}

const checkers = new WeakMap<TSchema, ValidateFunction>()

/**
 * The first way a value falls outside a schema, for what is read at start (settings, the services
 * catalog): where and what, in one line. The requests' Ajv, rather than TypeBox's value checker, which
 * loads some 300 modules of its own (2 MB of heap for the life of the process) for these few checks.
 */
export function firstSchemaProblem(schema: TSchema, value: unknown): ErrorDetail | undefined {
  let validate = checkers.get(schema)
  if (validate === undefined) {
    validate = bodyAjv.compile(schema)
    checkers.set(schema, validate)
  }
  if (validate(value)) return undefined
  const [first] = relevant(validate.errors ?? [])
  return first ? describe(first) : { path: '/', message: 'is invalid' }
}

/**
 * Free-form objects (a workshop record, a ledger) may nest; past this depth a value is refused, so
 * neither this walk nor any handler's recurses without bound (64 KiB of "[" is 65,536 levels).
 */
export const MAX_INPUT_DEPTH = 64

/**
 * Text and numbers every store can keep unchanged. PostgreSQL cannot store NUL in text, and a lone
 * UTF-16 surrogate is not Unicode: SQLite would store it altered (U+FFFD), so an identical retry
 * would no longer match. Numbers beyond 2^53 (or 1e400, which parses as Infinity) are not the
 * integers they claim to be. Both dialects refuse all of these alike, before any handler runs.
 */
function storableProblem(value: unknown, path: string, depth: number): ErrorDetail | undefined {
  if (typeof value === 'string') {
    if (value.includes('\u0000')) return { path: path || '/', message: 'must not contain the NUL character' }
    if (!value.isWellFormed()) return { path: path || '/', message: 'must be well-formed Unicode (no lone surrogates)' }
    return undefined
  }
  if (typeof value === 'number') {
    const unsafe = !Number.isFinite(value) || (Number.isInteger(value) && !Number.isSafeInteger(value))
    return unsafe ? { path: path || '/', message: 'is not a number this service can represent exactly' } : undefined
  }
  if (typeof value !== 'object' || value === null) return undefined
  if (depth >= MAX_INPUT_DEPTH)
    return { path: path || '/', message: `is nested more than ${MAX_INPUT_DEPTH} levels deep` }
  for (const [key, child] of Object.entries(value)) {
    const problem = storableProblem(child, `${path}/${key}`, depth + 1)
    if (problem) return problem
  }
  return undefined
}

/** anyOf reports every failed branch and then itself; the branch errors say more, so keep those. */
function relevant(errors: ErrorObject[]): ErrorObject[] {
  const specific = errors.filter((e) => e.keyword !== 'anyOf' && e.keyword !== 'oneOf')
  return specific.length ? specific : errors
}

function dedupe(details: ErrorDetail[]): ErrorDetail[] {
  const seen = new Set<string>()
  return details.filter((d) => {
    const id = `${d.path} ${d.message}`
    if (seen.has(id)) return false
    seen.add(id)
    return true
  })
}

function describe(error: ErrorObject): ErrorDetail {
  if (error.keyword === 'additionalProperties') {
    const name = String(error.params.additionalProperty)
    return { path: `${error.instancePath}/${name}`, message: `unknown field "${name}" is not accepted` }
  }
  if (error.keyword === 'required') {
    const name = String(error.params.missingProperty)
    return { path: `${error.instancePath}/${name}`, message: `required field "${name}" is missing` }
  }
  return { path: error.instancePath || '/', message: error.message ?? 'is invalid' }
}

function summarize(errors: ErrorObject[]): string {
  const first = errors[0]
  if (!first) return 'The request is invalid.'
  const detail = describe(first)
  const more = errors.length > 1 ? ` (and ${errors.length - 1} more problem(s))` : ''
  return `Invalid request: ${detail.path} ${detail.message}${more}.`
}
