import type { Static, TSchema } from 'typebox'
import type { Config } from '../config.ts'
import type { Db, OnCommit, WriteTx } from '../db/database.ts'
import type { KeyExposure } from '../store/participants/key-exposures.ts'
import type { CurrentParticipant } from '../store/participants/write.ts'
import type { Publishing } from '../store/publication.ts'
import type { Alerts } from '../services/alerts.ts'
import type { WalletServices } from '../wallet/services.ts'
import type { RandomSource } from '../services/clock.ts'
import type { Secrets } from '../services/secrets.ts'
import type { SecretScanner } from '../services/secret-scan/scanner.ts'
import type { DeclaredErrors } from '../services/errors.ts'
import type { Examples } from './examples.ts'
import type { ToolsetName } from './toolsets.ts'
import type { DescriptorSummary } from '../schemas/views.ts'
import type { QuotaPolicyName } from '../services/quota.ts'
import type { Signer } from '../services/receipts/signer.ts'
import type { ChainKeeper } from '../services/receipts/chain.ts'

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
  /** The one toolset that lists this tool (core/toolsets.ts); `participation` is served by default. */
  toolset: ToolsetName
}

/**
 * Everything a handler may touch. No HTTP or MCP object ever reaches it. The handler of a participant
 * action is given a ParticipantContext (defineAction), whose participant is always set. `H` is what
 * `db` is and `T` what ctx.transaction gives: a write action's handler gets its transaction as a
 * WriteTx (HandlesFor), so the store's writes accept it and a read action's shared handle they refuse.
 */
export interface ActionContext<H extends Db = Db, T extends Db = Db> {
  /** A transaction for writes; the shared handle for reads. */
  db: H
  now: Date
  random: RandomSource
  config: Config
  /** Set when the action's auth is `participant` (or an optional key was given). */
  participant: CurrentParticipant | undefined
  /**
   * The exposure that revoked the presented key, in an `exposureNotices` action (see there): the key
   * authenticates nobody, so `participant` is unset and the handler answers the notice.
   */
  keyExposure?: KeyExposure
  /** Normalised client address, only ever used to derive a pseudonymous abuse bucket. */
  clientAddress: string | undefined
  onCommit: OnCommit
  /**
   * Runs fn in a transaction and returns its result. In a `callsOut` action each call is a
   * transaction of its own, committed when fn returns (one step of the action); in every other
   * action fn joins the action's own transaction (or reads the shared handle).
   */
  transaction<R>(fn: (db: T) => Promise<R>): Promise<R>
  /**
   * A part of the answer that depends only on the shared history (the recent conversation roots,
   * say), reused by every request that needs it while the public stamp is unchanged. In a
   * `cacheable` action the pipeline's stamp decides; in any other action `read` simply runs.
   * The value is shared and must never be mutated.
   */
  shared<T>(key: string, read: () => Promise<T>): Promise<T>
  services: Services
}

/** What a helper of write actions takes: the action's transaction, and its steps' in a callsOut one. */
export type WriteContext = ActionContext<WriteTx, WriteTx>

/** What a participant action's handler is given: the participant its key authenticated. */
export interface ParticipantContext<H extends Db = Db, T extends Db = Db> extends ActionContext<H, T> {
  participant: CurrentParticipant
  keyExposure?: undefined
}

/**
 * What an `exposureNotices` action's handler is given: a participant, or, for a key revoked because a
 * write held it, only that exposure (the key authenticates nobody any more).
 */
export type NoticeContext<H extends Db = Db, T extends Db = Db> =
  ParticipantContext<H, T> | (ActionContext<H, T> & { participant: undefined; keyExposure: KeyExposure })

/** What every other action's handler is given: no participant (an optional key's may be). */
export type ContextFor<
  A extends Auth,
  Optional,
  Notices,
  H extends Db = Db,
  T extends Db = Db,
> = A extends 'participant'
  ? Optional extends true
    ? ActionContext<H, T>
    : Notices extends true
      ? NoticeContext<H, T>
      : ParticipantContext<H, T>
  : ActionContext<H, T> & { participant: undefined }

/**
 * The handles a handler is given, by its effect: a write runs in its transaction (a WriteTx), except a
 * `callsOut` one, which reads the shared handle and writes in each ctx.transaction step; a read never
 * has a transaction to write in.
 */
export type HandlesFor<E extends 'read' | 'write', CallsOut> = E extends 'write'
  ? CallsOut extends true
    ? { db: Db; step: WriteTx }
    : { db: WriteTx; step: WriteTx }
  : { db: Db; step: Db }

type ContextOf<A extends Auth, Optional, Notices, E extends 'read' | 'write', CallsOut> = ContextFor<
  A,
  Optional,
  Notices,
  HandlesFor<E, CallsOut>['db'],
  HandlesFor<E, CallsOut>['step']
>

/** Process-wide helpers actions may use (caches, alert outbox, ...). Extended as capabilities land. */
export interface Services {
  baseUrl: string
  /** The protocol descriptor, generated from the registry (see core/descriptor.ts). */
  descriptor: () => Record<string, unknown>
  /** Its summary (`detail=summary`): the parts by name with where to read each. */
  descriptorSummary: () => Static<typeof DescriptorSummary>
  /** Delivers queued operator alerts (reference only); call through onCommit after queueing. */
  alerts: Alerts
  /** Digests of stored secrets and abuse buckets, keyed by the server pepper. */
  secrets: Secrets
  /** Clears erased text out of the database's files (store/retention.ts); outside any transaction. */
  reclaimErasedSpace: () => Promise<void>
  /** The secret scan of every stored text (services/secret-scan), run by the pipeline before a write. */
  secretScanner: SecretScanner
  /** The JSON-RPC client of the chain and the x402 payment server, built from the config on first use. */
  wallet: WalletServices
  /** Signs receipts and chain heads with the server key (services/receipts); its public JWK is served. */
  signer: Signer
  /** The hash chains of the public history, extended when their heads are read. */
  chain: ChainKeeper
}

export interface ActionDef<
  I extends TSchema = TSchema,
  O extends TSchema = TSchema,
  C extends ActionContext = ActionContext,
> {
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
   * A key revoked because a write held it is answered with the notice of that exposure instead of 403
   * key_revoked (ctx.keyExposure), so its owner learns why; the handler then reads nothing private.
   */
  exposureNotices?: boolean
  /**
   * A public read whose output depends only on published contributions, note revisions and their
   * attribution: served from the read cache while the public stamp is unchanged.
   */
  cacheable?: boolean
  /**
   * The handler calls another service over the network (a JSON-RPC node, a payment facilitator). It
   * then runs outside any transaction, so no lock is held while a remote answer is awaited: ctx.db is
   * the shared handle for reads and each write is a step of its own through ctx.transaction(fn).
   * Paused writes are checked before the handler runs.
   */
  callsOut?: boolean
  /**
   * Request data the REST transport copies into the input before validation, so handlers never see
   * an HTTP object. `headers` maps a request header (lower case) to an input field (the x402
   * PAYMENT-SIGNATURE header to payment_signature); a body carrying the same field with another value
   * is refused. `cookies` maps a cookie to an input field, used only when the body lacks the field
   * and the request comes from a page of this origin (Sec-Fetch-Site: same-origin): the wallet page.
   */
  requestFields?: { headers?: Readonly<Record<string, string>>; cookies?: Readonly<Record<string, string>> }
  /**
   * Statuses other than 200 that a successful result can carry (set with withHttpAnswer, see
   * services/http-answer.ts), each with its meaning; OpenAPI documents the output schema under them.
   */
  answers?: Readonly<Record<number, string>>
  /** String fields trimmed before validation (the spec trims content). */
  trim?: readonly string[]
  input: I
  output: O
  /**
   * Errors the handler itself throws, each with its status: `{ not_found: 400 }`. The registry merges
   * them into the one table of statuses and refuses a code declared with two. The pipeline's own
   * refusals (authentication, paused writes, validation, ...) are derived from auth and effect by
   * core/action-errors.ts and added to these.
   */
  errors: DeclaredErrors
  /**
   * Valid inputs (without `action`) built from references to records a fixture made: the tests, the
   * fuzzer and the matrices call every action with them, and OpenAPI shows the first, with stand-ins.
   */
  examples: Examples
  /**
   * Limits the action is under besides the key-guessing throttle (derived from its credentials):
   * `post` the posting interval, `join` the registration rate, `poll` the minimum polling interval.
   * Each is advertised as a quota policy (core/quota-policies.ts); the handler reports the caller's
   * state in it (services/quota.ts).
   */
  quotas?: readonly Exclude<QuotaPolicyName, 'key'>[]
  /** Cursor-paged outputs: where each page's items, next cursor and has_more live (see store/pager.ts). */
  paging?: readonly PagingDecl[]
  mcp?: McpBinding
  // Method syntax on purpose: it keeps every ActionDef<I, O> assignable to AnyAction, so the
  // registry list needs no cast. A write that drew public ids answers once they are public.
  handler(ctx: C, input: Static<I>): Promise<Static<O> | Publishing<Static<O>>>
}

/**
 * One cursor of a paged read: `cursor` is the input field (after, memory_after), the others are
 * paths into the output (`a.b`, and `a[].b` for lists inside lists).
 */
export interface PagingDecl {
  cursor: string
  items: readonly string[]
  next: string
  hasMore: string
}

/**
 * Identity function that keeps the input and output types tied to their schemas, and gives the handler
 * the context its `auth` guarantees: a participant action's handler its participant, without a cast.
 */
export function defineAction<
  I extends TSchema,
  O extends TSchema,
  const A extends Auth,
  const Optional extends boolean | undefined = undefined,
  const Notices extends boolean | undefined = undefined,
  const E extends 'read' | 'write' = 'read' | 'write',
  const CallsOut extends boolean | undefined = undefined,
>(
  def: Omit<
    ActionDef<I, O, ContextOf<A, Optional, Notices, E, CallsOut>>,
    'auth' | 'keyOptional' | 'exposureNotices' | 'effect' | 'callsOut'
  > & {
    auth: A
    keyOptional?: Optional
    exposureNotices?: Notices
    effect: E
    callsOut?: CallsOut
  },
): ActionDef<I, O> {
  return def as unknown as ActionDef<I, O>
}

export type AnyAction = ActionDef<TSchema, TSchema>
