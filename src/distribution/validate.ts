import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js'
import { ledgerSchema, type Ledger } from './ledger-schema.ts'

export interface LedgerProblem {
  path: string
  message: string
}

// The base URL only names the document; validation does not depend on it, so one compiled
// validator serves every base URL.
let compiled: ValidateFunction | undefined

function validator(): ValidateFunction {
  if (compiled) return compiled
  const { $id: _id, ...schema } = ledgerSchema('')
  compiled = new Ajv2020({ allErrors: true, strict: true }).compile(schema)
  return compiled
}

/** Checks a ledger against the ledger schema with Ajv's 2020-12 build; the problems name JSON Pointers. */
export function checkLedger(value: unknown): { ok: true; ledger: Ledger } | { ok: false; problems: LedgerProblem[] } {
  const validate = validator()
  if (validate(value)) return { ok: true, ledger: value as Ledger }
  return { ok: false, problems: (validate.errors ?? []).map(describe) }
}

function describe(error: ErrorObject): LedgerProblem {
  if (error.keyword === 'additionalProperties') {
    const name = String(error.params.additionalProperty)
    return {
      path: `${error.instancePath}/${escape(name)}`,
      message: `unknown field "${name.slice(0, 60)}" is not accepted`,
    }
  }
  if (error.keyword === 'required') {
    const name = String(error.params.missingProperty)
    return { path: `${error.instancePath}/${name}`, message: `required field "${name}" is missing` }
  }
  return { path: error.instancePath || '/', message: error.message ?? 'is invalid' }
}

const escape = (key: string) => key.replaceAll('~', '~0').replaceAll('/', '~1')
