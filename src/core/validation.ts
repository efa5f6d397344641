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

export function compileValidator(schema: TSchema, source: 'body' | 'query' = 'body'): Validator {
  const validate: ValidateFunction = (source === 'body' ? bodyAjv : queryAjv).compile(schema)
  return (value) => {
    if (validate(value)) return
    const errors = relevant(validate.errors ?? [])
    throw new ServiceError('invalid_request', summarize(errors), { details: dedupe(errors.map(describe)) })
  }
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
