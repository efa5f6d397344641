import type { Static, TSchema } from 'typebox'
import type { Config } from '../config.ts'
import type { Db, OnCommit } from '../store/database.ts'
import type { ParticipantRow } from '../store/participants.ts'
import type { Alerts } from './alerts.ts'
import type { RandomSource } from './clock.ts'
import type { ErrorCode } from './errors.ts'

/**
 * Who may call an action. `participant` needs `key` in the input; `operator` needs
 * `operator_key`; `review` needs `review_key` (REVIEW_KEY, falling back to OPERATOR_KEY).
 */
export type Auth = 'public' | 'participant' | 'operator' | 'review'

/** Where REST serves an action: POST bodies dispatch on `action`, GETs on the `view` query parameter. */
export type HttpBinding =
  { method: 'POST'; path: string } | { method: 'GET'; path: string; view?: string; contentType?: string }

export interface McpBinding {
  /** Tool name when it differs from the action name. */
  name?: string
  title: string
  /** Irreversible loss of data (e.g. revoking a key); additive writes leave it unset. */
  destructive?: boolean
  /** A retry with the same arguments has no further effect (reads and client_id writes need not say). */
  idempotent?: boolean
}

/** Everything a handler may touch. No HTTP or MCP object ever reaches it. */
export interface ActionContext {
  /** A transaction for writes; the shared handle for reads. */
  db: Db
  now: Date
  random: RandomSource
  config: Config
  /** Set when the action's auth is `participant` (or an optional key was given). */
  participant: ParticipantRow | undefined
  /** Normalised client address, only ever used to derive a pseudonymous abuse bucket. */
  clientAddress: string | undefined
  onCommit: OnCommit
  services: Services
}

/** Process-wide helpers actions may use (caches, alert outbox, ...). Extended as capabilities land. */
export interface Services {
  baseUrl: string
  /** The protocol descriptor, generated from the registry (see core/descriptor.ts). */
  descriptor: () => Record<string, unknown>
  /** Delivers queued operator alerts (reference only); call through onCommit after queueing. */
  alerts: Alerts
}

export interface ActionDef<I extends TSchema = TSchema, O extends TSchema = TSchema> {
  name: string
  summary: string
  /** A longer explanation for agents; shown in OpenAPI, MCP and the descriptor. */
  description?: string
  http: HttpBinding
  auth: Auth
  /** `write` actions run in a transaction and stop while an operator pauses writes. */
  effect: 'read' | 'write'
  /** A participant key is accepted but not required (public checks). */
  keyOptional?: boolean
  /** A paused participant may still call this (resume, rotate_key, revoke_key, private reads). */
  allowPaused?: boolean
  /**
   * A public read whose output depends only on published contributions, note revisions and their
   * attribution: served from the read cache while the public stamp is unchanged.
   */
  cacheable?: boolean
  /** String fields trimmed before validation (the spec trims content). */
  trim?: readonly string[]
  input: I
  output: O
  errors: readonly ErrorCode[]
  mcp?: McpBinding
  handler: (ctx: ActionContext, input: Static<I>) => Promise<Static<O>>
}

/** Identity function that keeps the input and output types tied to their schemas. */
export function defineAction<I extends TSchema, O extends TSchema>(def: ActionDef<I, O>): ActionDef<I, O> {
  return def
}

export type AnyAction = ActionDef<TSchema, TSchema>
