import type { AnyAction } from './action.ts'
import { credentialFields, publishedErrors, textFields } from './action-errors.ts'
import type { ErrorCode } from '../services/errors.ts'
import { ErrorTable } from './error-table.ts'
import type { QuotaPolicyName } from '../services/quota.ts'
import { compileValidator, type Validator } from '../services/validation.ts'

export interface RegisteredAction {
  def: AnyAction
  /** Every error code the action can answer with (declared plus derived), sorted. */
  errors: readonly ErrorCode[]
  /** Input fields carrying a caller's secret: the pipeline throttles wrong ones (core/key-guard.ts). */
  credentials: readonly string[]
  /** The quota policies the action is under: its declared ones, and `key` when it takes a secret. */
  quotas: readonly QuotaPolicyName[]
  /** Paths of the stored text fields of a write, scanned for secrets (core/stages/scan-secrets.ts). */
  textFields: readonly string[]
  validateBody: Validator
  validateQuery: Validator
  /** Checks a result against the output schema; used when contracts are checked (tests). */
  validateOutput: Validator
}

/** The one registry: REST dispatch, MCP tools, OpenAPI and the descriptor all read it. */
export class Registry {
  readonly all: readonly RegisteredAction[]
  /** The status of every error code: the core's own and every action's declared ones. */
  readonly errorTable: ErrorTable
  private readonly byName = new Map<string, RegisteredAction>()

  constructor(defs: readonly AnyAction[]) {
    this.all = defs.map((def) => {
      const validateBody = compileValidator(def.input, 'body')
      // Only GET actions ever receive a query string; the others need no coercing validator.
      const validateQuery = def.http.method === 'GET' ? compileValidator(def.input, 'query') : validateBody
      let output: Validator | undefined
      const validateOutput: Validator = (value) => (output ??= compileValidator(def.output, 'output'))(value)
      const credentials = credentialFields(def)
      const texts = textFields(def)
      return {
        def,
        errors: publishedErrors(def),
        credentials,
        quotas: [...(def.quotas ?? []), ...(credentials.length > 0 ? (['key'] as const) : [])],
        textFields: texts,
        validateBody,
        validateQuery,
        validateOutput,
      }
    })
    this.errorTable = new ErrorTable(defs.map((def) => ({ by: `action ${def.name}`, errors: def.errors })))
    for (const entry of this.all) {
      if (this.byName.has(entry.def.name)) throw new Error(`Duplicate action name: ${entry.def.name}`)
      this.byName.set(entry.def.name, entry)
    }
  }

  get(name: string): RegisteredAction | undefined {
    return this.byName.get(name)
  }

  /** Actions served at one HTTP path and method, in registry order. */
  at(method: 'GET' | 'POST', path: string): RegisteredAction[] {
    return this.all.filter((a) => a.def.http.method === method && a.def.http.path === path)
  }

  paths(): Array<{ method: 'GET' | 'POST'; path: string }> {
    const seen = new Map<string, { method: 'GET' | 'POST'; path: string }>()
    for (const { def } of this.all) seen.set(`${def.http.method} ${def.http.path}`, def.http)
    return [...seen.values()]
  }
}
