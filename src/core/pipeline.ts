import type { Config } from '../config.ts'
import type { Database, Db, OnCommit } from '../db/database.ts'
import { readFlag, sharedFlag, WRITES_PAUSED } from '../store/flags.ts'
import { findByKeyHash, type CurrentParticipant } from '../store/participants.ts'
import { publicStamp, sharedStamp } from '../store/public-stamp.ts'
import { abuseBucket } from './abuse.ts'
import type { ActionContext, Services } from './action.ts'
import type { Clock, RandomSource } from './clock.ts'
import type { ActionObserver } from './metrics.ts'
import { ServiceError, toServiceError } from './errors.ts'
import type { KeyGuard } from './key-guard.ts'
import { AuthorChanged, type KnownAuthors } from './known-authors.ts'
import type { Publisher } from './publisher.ts'
import type { ReadCache } from './read-cache.ts'
import type { RegisteredAction } from './registry.ts'
import { sameDigest, sha256 } from './secrets.ts'

export interface Runtime {
  database: Database
  readCache: ReadCache
  keyGuard: KeyGuard
  knownAuthors: KnownAuthors
  publisher: Publisher
  config: Config
  clock: Clock
  random: RandomSource
  services: Services
  /** Set when metrics are on (METRICS_TOKEN): the transports report each call to it. */
  metrics?: ActionObserver
}

/** What a transport knows about the caller; nothing else crosses into actions. */
export interface CallInfo {
  clientAddress: string | undefined
  /** `query` inputs come from a URL and are coerced ("5" -> 5); `body` inputs are strict JSON. */
  source: 'body' | 'query'
}

const WRITES_PAUSED_RETRY_SECONDS = 300

const writesPaused = () =>
  new ServiceError('writes_paused', 'Writes are paused by the operators; reading still works.', {
    retryAfterSeconds: WRITES_PAUSED_RETRY_SECONDS,
  })

/**
 * The one way any transport runs an action: trim, validate, refuse a bucket blocked for guessing
 * secrets, check the operator secret, then (writes in one transaction) check paused writes, authenticate and run
 * the handler. REST and MCP both call this, so policy cannot drift apart. With contracts checked
 * (tests), every result must match the output schema and every refusal the published error list.
 */
export async function runAction(
  rt: Runtime,
  entry: RegisteredAction,
  rawInput: unknown,
  call: CallInfo,
): Promise<unknown> {
  if (!rt.config.checkContracts) return execute(rt, entry, rawInput, call)
  let result: unknown
  try {
    result = await execute(rt, entry, rawInput, call)
  } catch (err) {
    const error = toServiceError(err)
    if (!entry.errors.includes(error.code) && error.code !== 'internal_error') {
      throw new Error(`${entry.def.name} answered ${error.code}, which it does not publish`, { cause: err })
    }
    throw err
  }
  try {
    entry.validateOutput(result)
  } catch (err) {
    throw new Error(`${entry.def.name} returned a result outside its output schema`, { cause: err })
  }
  return result
}

async function execute(rt: Runtime, entry: RegisteredAction, rawInput: unknown, call: CallInfo): Promise<unknown> {
  const { def } = entry
  const input = trimFields(rawInput, def.trim)
  ;(call.source === 'query' ? entry.validateQuery : entry.validateBody)(input)
  const fields = input as Record<string, unknown>

  // A caller that presents a secret (a key, operator or review key, receipt key or session token) is
  // refused while its bucket is blocked, before the secret is looked at: the right one gains nothing.
  const now = rt.clock.now()
  const presentsSecret = entry.credentials.some((field) => typeof fields[field] === 'string')
  const bucket = presentsSecret ? abuseBucket(rt.services.secrets, call.clientAddress, now) : undefined
  if (bucket !== undefined) rt.keyGuard.check(bucket, now)
  try {
    return await authorized(rt, entry, input, call, now)
  } catch (err) {
    // A wrong secret is counted against the caller's bucket; past the limit the answer becomes 429.
    if (bucket !== undefined && err instanceof ServiceError && err.guess) {
      throw (await rt.keyGuard.failed(rt.database, bucket, now)) ?? err
    }
    throw err
  }
}

/** Checks the operator or review secret, then runs the action (writes in one transaction). */
async function authorized(rt: Runtime, entry: RegisteredAction, input: unknown, call: CallInfo, now: Date) {
  const { def } = entry
  const fields = input as Record<string, unknown>
  if (def.auth === 'operator') requireSecret(fields.operator_key, rt.config.operatorKey, 'operator_key')
  if (def.auth === 'review') requireSecret(fields.review_key, rt.config.reviewKey, 'review_key')

  // Operators stay able to act (resume_writes above all) while participant writes are paused. A write
  // made with a key learns it from its key's look-up. On PostgreSQL one without reads the flag before its
  // transaction, together with the other requests of its turn (store/flags.ts), instead of as a round
  // trip of its own while it holds a pooled connection (join 1,443 -> 1,557/s); SQLite reads in-process
  // and in its batched transaction, where a read of its own outside cost more (join -3%).
  const pausable = def.effect === 'write' && def.auth !== 'operator'
  const presentsKey = def.auth === 'participant' && typeof fields.key === 'string'
  const keyless = pausable && !presentsKey && (def.auth !== 'participant' || def.keyOptional)
  const flagFirst = keyless && rt.database.dialect === 'postgres'
  if (flagFirst && (await sharedFlag(rt.database.db, WRITES_PAUSED)) === 'true') throw writesPaused()

  // A post's author may come from memory instead of a read (core/known-authors.ts), until a request
  // from memory is refused: it then runs again, reading.
  const remembers = def.verifiesAuthor === true && rt.database.dialect === 'postgres'
  let recall = remembers
  let author: Authenticated | undefined
  const run = async (db: Db, onCommit: OnCommit, step?: ActionContext['transaction']) => {
    const authenticated = await authenticate(rt, db, entry, fields.key, recall)
    author = authenticated
    if (pausable) {
      const paused = authenticated
        ? authenticated.writesPaused
        : !flagFirst && (await readFlag(db, WRITES_PAUSED)) === 'true'
      if (paused) throw writesPaused()
    }
    const participant = authenticated?.participant
    // The stamp is read before the data: a write landing in between only causes a later miss.
    const stamp = def.cacheable ? await (db === rt.database.db ? sharedStamp(db) : publicStamp(db)) : undefined
    const cache = rt.readCache
    const ctx: ActionContext = {
      db,
      now,
      random: rt.random,
      config: rt.config,
      participant,
      ...(authenticated?.remembered ? { rememberedAuthor: authenticated } : {}),
      clientAddress: call.clientAddress,
      onCommit,
      transaction: step ?? ((fn) => fn(db)),
      shared: stamp === undefined ? (_key, read) => read() : (key, read) => cache.part(key, stamp, read),
      services: rt.services,
    }
    if (stamp === undefined) return def.handler(ctx, input)
    return cache.through(`${def.name} ${JSON.stringify(input)}`, stamp, () => def.handler(ctx, input))
  }

  // A write's provisional ids (PostgreSQL) become public after its commit, before it answers.
  if (def.effect === 'write' && !def.callsOut) {
    const write = async () => rt.publisher.resolve(await rt.database.transaction(run))
    let result: unknown
    try {
      result = await write()
    } catch (err) {
      const remembered = author?.remembered ? author : undefined
      if (!remembered || !(err instanceof AuthorChanged || err instanceof ServiceError)) throw err
      rt.knownAuthors.readAgainFor(remembered.keyHash)
      recall = false
      result = await write()
    }
    // As its write left it: its activity moved with the post (core/activity.ts, usageOf).
    if (remembers && author) rt.knownAuthors.remember(author.keyHash, author.participant)
    return result
  }
  if (def.auth === 'participant' && !def.callsOut) return await rt.database.transaction(run)
  // Reads, and actions that call out (each of their steps commits on its own, see ActionDef.callsOut).
  const deferred: Array<() => void | Promise<void>> = []
  const step: ActionContext['transaction'] = (fn) => rt.database.transaction((tx) => fn(tx))
  const result = await run(rt.database.db, (fn) => deferred.push(fn), def.callsOut ? step : undefined)
  rt.database.afterCommit(deferred)
  return result
}

interface Authenticated {
  participant: CurrentParticipant
  writesPaused: boolean
  keyHash: string
  /** The participant was remembered, not read: the action's write checks it (verifiesAuthor). */
  remembered: boolean
}

async function authenticate(
  rt: Runtime,
  db: Db,
  entry: RegisteredAction,
  key: unknown,
  recall: boolean,
): Promise<Authenticated | undefined> {
  const { def } = entry
  if (def.auth !== 'participant') return undefined
  if (typeof key !== 'string') {
    if (def.keyOptional) return undefined
    throw new ServiceError('invalid_request', 'A participation key is required in the body field "key".', {
      details: [{ path: '/key', message: 'required field "key" is missing' }],
    })
  }
  const keyHash = rt.services.secrets.digest(key)
  const known = recall ? rt.knownAuthors.recall(keyHash) : undefined
  if (known) return { participant: known, writesPaused: false, keyHash, remembered: true }
  const found = await findByKeyHash(db, keyHash)
  if (!found || found.state === 'rotated') {
    throw new ServiceError('invalid_key', 'The participation key is not valid.', { guess: true })
  }
  if (found.state === 'revoked')
    throw new ServiceError('key_revoked', 'This key was revoked and can no longer be used.')
  const { participant } = found
  if (Number(participant.suspended) === 1 && def.effect === 'write') {
    throw new ServiceError('participant_suspended', 'This participant is suspended by the operators.')
  }
  if (participant.status === 'paused' && !def.allowPaused) {
    throw new ServiceError('participant_paused', 'This participant is paused; call resume with the same key first.')
  }
  return { participant, writesPaused: found.writesPaused, keyHash, remembered: false }
}

function requireSecret(presented: unknown, configured: string | null, field: string): void {
  if (configured === null) throw new ServiceError('operator_only', 'Operator actions are disabled on this server.')
  if (typeof presented !== 'string' || !sameDigest(sha256(presented), sha256(configured))) {
    throw new ServiceError('operator_only', `The ${field} is not valid for this operator action.`, { guess: true })
  }
}

function trimFields(input: unknown, fields: readonly string[] | undefined): unknown {
  if (!fields || typeof input !== 'object' || input === null || Array.isArray(input)) return input
  const copy: Record<string, unknown> = { ...(input as Record<string, unknown>) }
  for (const field of fields) {
    const value = copy[field]
    if (typeof value === 'string') copy[field] = value.trim()
  }
  return copy
}
