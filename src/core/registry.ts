import type { TSchema } from 'typebox'
import { compileValidator, type Validator } from './validation.ts'
import type { ActionDef, AnyAction } from './action.ts'

export interface RegisteredAction {
  def: AnyAction
  validateBody: Validator
  validateQuery: Validator
}

/** The one registry: REST dispatch, MCP tools, OpenAPI and the descriptor all read it. */
export class Registry {
  readonly all: readonly RegisteredAction[]
  private readonly byName = new Map<string, RegisteredAction>()

  constructor(defs: ReadonlyArray<ActionDef<TSchema, TSchema>>) {
    this.all = defs.map((def) => {
      const validateBody = compileValidator(def.input, 'body')
      // Only GET actions ever receive a query string; the others need no coercing validator.
      const validateQuery = def.http.method === 'GET' ? compileValidator(def.input, 'query') : validateBody
      return { def: def as AnyAction, validateBody, validateQuery }
    })
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
