import type { FastifyInstance } from 'fastify'
import { Type, type Static, type TSchema } from 'typebox'
import type { AnyAction } from '../core/action.ts'
import type { RegisteredAction, Registry } from '../core/registry.ts'
import { StringEnum } from '../schemas/common.ts'
import { Bookmark } from '../schemas/bookmarks.ts'
import { OperatorCase } from '../schemas/cases.ts'
import { Lesson } from '../schemas/documents.ts'
import { ActionDraft, PostDraft, PublicDraft } from '../schemas/drafts.ts'
import { FeedItem } from '../schemas/feed.ts'
import { FeedbackReport, FeedbackReview } from '../schemas/feedback.ts'
import { AuditEntry } from '../schemas/operator.ts'
import { Contribution, MemoryRevision, PublicParticipant } from '../schemas/records.ts'

type Json = Record<string, unknown>

/**
 * Records that appear inside many results: each becomes one named component, referenced wherever it
 * occurs, so a generated client gets `Contribution` rather than forty anonymous copies. Names are the
 * schemas' export names; keep them stable, clients import them.
 */
const RECORDS: Record<string, TSchema> = {
  Contribution,
  MemoryRevision,
  PublicParticipant,
  FeedItem,
  FeedbackReport,
  FeedbackReview,
  Bookmark,
  Lesson,
  PublicDraft,
  PostDraft,
  ActionDraft,
  OperatorCase,
  AuditEntry,
}

const RECORD_BY_OBJECT = new Map<unknown, string>(Object.entries(RECORDS).map(([name, schema]) => [schema, name]))
const RECORD_BY_TEXT = new Map<string, string>(
  Object.entries(RECORDS).map(([name, schema]) => [JSON.stringify(schema), name]),
)

/** `read_history` -> `ReadHistory`. */
export function pascal(name: string): string {
  return name.replace(/(^|[_-])([a-z0-9])/g, (_m, _sep, c: string) => c.toUpperCase())
}

/** `read_history` -> `readHistory`: the operationId, from which generators name client methods. */
export function camel(name: string): string {
  const p = pascal(name)
  return p.charAt(0).toLowerCase() + p.slice(1)
}

export const inputName = (def: AnyAction): string => `${pascal(def.name)}Input`
export const resultName = (def: AnyAction): string => `${pascal(def.name)}Result`
export const ref = (name: string): Json => ({ $ref: name })

/**
 * Where a path serves several actions (dispatch on `action` or `view`), each action also gets a path
 * of its own, `<path>/<view or action>`, so every operation has exactly one request and one result
 * type. The alias runs the same registry action through the same pipeline.
 */
export function aliasPath(registry: Registry, def: AnyAction): string | undefined {
  if (registry.at(def.http.method, def.http.path).length < 2) return undefined
  const segment = def.http.method === 'GET' ? (def.http.view ?? def.name.replace(/^read_/, '')) : def.name
  return `${def.http.path}/${segment}`
}

export const ERROR_COMPONENT = 'Error'

/**
 * Every non-2xx body (DESIGN.md, "Error body"); each response's description lists its codes. OpenAPI
 * shows `code` as the enum of the registry's table (errorComponent).
 */
const ErrorBody = Type.Object(
  {
    error: Type.Object({
      code: Type.String({ description: 'Machine-readable snake_case code.' }),
      message: Type.String({ description: 'A human sentence.' }),
      details: Type.Optional(
        Type.Array(Type.Object({ path: Type.String(), message: Type.String() }), {
          description: 'Which fields were wrong, as JSON pointers into the input.',
        }),
      ),
    }),
    retry_after_seconds: Type.Optional(
      Type.Integer({ minimum: 0, description: 'With 429 and 503: seconds to wait (also the Retry-After header).' }),
    ),
  },
  { description: 'The body of every error answer.' },
)

/** The error body as OpenAPI names it: its code one of the registry's table. */
function errorComponent(registry: Registry): Json {
  const body = structuredClone(ErrorBody) as unknown as Json & { properties: { error: { properties: Json } } }
  const codes = Object.keys(registry.errorTable.all())
  body.properties.error.properties.code = StringEnum(codes, { description: 'Machine-readable snake_case code.' })
  return body
}

/** An error answer's body as clients (and the tests) read it. */
export type ErrorAnswer = Static<typeof ErrorBody>

/** Registers every action's input and result, the shared records and the error body as named components. */
export function registerComponents(app: FastifyInstance, registry: Registry): void {
  app.addSchema({ ...errorComponent(registry), $id: ERROR_COMPONENT })
  for (const [name, schema] of Object.entries(RECORDS)) {
    app.addSchema({ ...(docSchema(schema, name) as Json), $id: name })
  }
  for (const { def } of registry.all) {
    let input = docSchema(def.input)
    if (def.http.method === 'POST' && aliasPath(registry, def)) input = optionalAction(input, def.name)
    app.addSchema({ ...(input as Json), $id: inputName(def) })
    app.addSchema({ ...(docSchema(def.output) as Json), $id: resultName(def) })
  }
}

/**
 * The schema as OpenAPI shows it: a deep copy in which shared records become references, and an
 * if/then/else that picks one of two closed shapes becomes the equivalent oneOf (generators type a
 * oneOf; they cannot type a conditional). The registry's own schemas, which validate, never change.
 */
export function docSchema(schema: unknown, self?: string): unknown {
  if (Array.isArray(schema)) return schema.map((item) => docSchema(item))
  if (typeof schema !== 'object' || schema === null) return schema
  const record = RECORD_BY_OBJECT.get(schema) ?? RECORD_BY_TEXT.get(JSON.stringify(schema))
  if (record !== undefined && record !== self) return ref(record)
  const copy: Json = {}
  for (const [key, value] of Object.entries(schema)) copy[key] = docSchema(value)
  return conditionalAsOneOf(copy)
}

/** `{if: {required: [p]}, then: A, else: B}` where A requires p and B forbids it: exactly oneOf [A, B]. */
function conditionalAsOneOf(schema: Json): Json {
  const condition = schema.if as { required?: unknown[] } | undefined
  const [field] = condition?.required ?? []
  if (typeof field !== 'string' || !schema.then || !schema.else) return schema
  const requires = (s: unknown) =>
    Array.isArray(resolved(s).required) && (resolved(s).required as unknown[]).includes(field)
  const forbids = (s: unknown) =>
    resolved(s).additionalProperties === false && !(field in (resolved(s).properties ?? {}))
  if (!requires(schema.then) || !forbids(schema.else)) return schema
  const { if: _if, then, else: otherwise, properties: _p, required: _r, type: _t, ...rest } = schema
  return { ...rest, oneOf: [then, otherwise] }
}

/** Conditions are checked on the record a reference names. */
function resolved(schema: unknown): Json & { properties?: Json } {
  const name = (schema as { $ref?: string }).$ref
  return (name !== undefined ? docSchema(RECORDS[name], name) : schema) as Json & { properties?: Json }
}

/** On an alias path the path names the action, so `action` may be left out (if sent, it must match). */
function optionalAction(schema: unknown, name: string): unknown {
  const copy = schema as Json
  if (Array.isArray(copy.required)) copy.required = copy.required.filter((field) => field !== 'action')
  const properties = copy.properties as Json | undefined
  if (properties?.action) {
    properties.action = {
      ...(properties.action as Json),
      description: `Optional on the path that names the action; required where the body selects it: "${name}".`,
    }
  }
  return copy
}

/** The body a dispatch path documents for one action: its input with `action` required again. */
export function dispatchVariant(entry: RegisteredAction): Json {
  return { allOf: [ref(inputName(entry.def))], required: ['action'] }
}
