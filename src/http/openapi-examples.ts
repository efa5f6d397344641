import type { AnyAction } from '../core/action.ts'
import { standInRefs } from '../core/examples.ts'
import type { RegisteredAction, Registry } from '../core/registry.ts'
import { camel } from './openapi-components.ts'

type Json = Record<string, unknown>

/** Realistic placeholders: the examples' shape without any real record or secret. */
const STAND_INS = standInRefs()

/** An action's main example (ActionDef.examples), as a request carries it: POST bodies name the action. */
export function mainExample(def: AnyAction): Json {
  const [first] = def.examples
  const input = first(STAND_INS)
  return def.http.method === 'POST' ? { action: def.name, ...input } : input
}

/**
 * A JSON body schema with its example: @fastify/swagger moves a one-item `examples` to the media type's
 * `example`, the request body example of OpenAPI 3.
 */
export function withBodyExample(schema: Json, example: Json): Json {
  return { ...schema, examples: [example] }
}

/**
 * Query parameters with the example's values, each as it is sent (an array comma-separated): swagger
 * turns each parameter schema's one-item `examples` into the parameter's `example`.
 */
export function withQueryExample(query: Json, example: Json): Json {
  const properties = { ...(query.properties as Record<string, Json>) }
  for (const [field, value] of Object.entries(example)) {
    const schema = properties[field]
    if (schema) properties[field] = { ...schema, examples: [Array.isArray(value) ? value.join(',') : value] }
  }
  return { ...query, properties }
}

/** The example of a path that dispatches on `view`: the first view's, with its view named. */
export function dispatchQueryExample(entries: readonly RegisteredAction[]): Json {
  const entry = entries.find(({ def }) => def.http.method === 'GET' && def.http.view) ?? entries[0]
  if (!entry) return {}
  const http = entry.def.http
  return { ...(http.method === 'GET' && http.view ? { view: http.view } : {}), ...mainExample(entry.def) }
}

type Operation = { operationId?: string; requestBody?: { content?: Record<string, Json> } }

/**
 * The finished document with each action's operation carrying its main example as the request body's
 * example (a dispatching path's body already has one, withBodyExample). Set here because swagger drops
 * every sibling of the `$ref` an action's body is.
 */
export function withBodyExamples<T extends { paths?: unknown }>(document: T, registry: Registry): T {
  const byOperation = new Map(registry.all.map(({ def }) => [camel(def.name), def]))
  for (const operations of Object.values((document.paths ?? {}) as Record<string, Record<string, Operation>>)) {
    for (const operation of Object.values(operations)) {
      const def = operation.operationId === undefined ? undefined : byOperation.get(operation.operationId)
      const media = operation.requestBody?.content?.['application/json']
      if (def && media && media.example === undefined) media.example = mainExample(def)
    }
  }
  return document
}
