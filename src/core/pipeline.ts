import type { Config } from '../config.ts'
import type { Database, Db, OnCommit } from '../store/database.ts'
import { readFlag, WRITES_PAUSED } from '../store/flags.ts'
import { findByKeyHash, type ParticipantRow } from '../store/participants.ts'
import { publicStamp } from '../store/public-stamp.ts'
import type { ActionContext, AnyAction, Services } from './action.ts'
import type { Clock, RandomSource } from './clock.ts'
import { ServiceError } from './errors.ts'
import type { ReadCache } from './read-cache.ts'
import type { RegisteredAction } from './registry.ts'
import { hashSecret, secretMatches } from './secrets.ts'

export interface Runtime {
  database: Database
  readCache: ReadCache
  config: Config
  clock: Clock
  random: RandomSource
  services: Services
}

/** What a transport knows about the caller; nothing else crosses into actions. */
export interface CallInfo {
  clientAddress: string | undefined
  /** `query` inputs come from a URL and are coerced ("5" -> 5); `body` inputs are strict JSON. */
  source: 'body' | 'query'
}

const WRITES_PAUSED_RETRY_SECONDS = 300

/**
 * The one way any transport runs an action: trim, validate, check writes, authorize, then run the
 * handler (writes in one transaction). REST and MCP both call this, so policy cannot drift apart.
 */
export async function runAction(
  rt: Runtime,
  entry: RegisteredAction,
  rawInput: unknown,
  call: CallInfo,
): Promise<unknown> {
  const { def } = entry
  const input = trimFields(rawInput, def.trim)
  ;(call.source === 'query' ? entry.validateQuery : entry.validateBody)(input)
  const fields = input as Record<string, unknown>

  if (def.auth === 'operator') requireSecret(fields.operator_key, rt.config.operatorKey, 'operator_key')
  if (def.auth === 'review') requireSecret(fields.review_key, rt.config.reviewKey, 'review_key')

  const now = rt.clock.now()
  const run = async (db: Db, onCommit: OnCommit) => {
    // Operators stay able to act (resume_writes above all) while participant writes are paused.
    if (def.effect === 'write' && def.auth !== 'operator' && (await readFlag(db, WRITES_PAUSED)) === 'true') {
      throw new ServiceError('writes_paused', 'Writes are paused by the operators; reading still works.', {
        retryAfterSeconds: WRITES_PAUSED_RETRY_SECONDS,
      })
    }
    const participant = await authenticate(db, def, fields.key)
    const ctx: ActionContext = {
      db,
      now,
      random: rt.random,
      config: rt.config,
      participant,
      clientAddress: call.clientAddress,
      onCommit,
      services: rt.services,
    }
    if (!def.cacheable) return def.handler(ctx, input)
    // The stamp is read before the data: a write landing in between only causes a later miss.
    const stamp = await publicStamp(db)
    const key = `${def.name} ${JSON.stringify(input)}`
    const cached = rt.readCache.get(key, stamp)
    if (cached !== undefined) return cached
    const result = await def.handler(ctx, input)
    rt.readCache.set(key, stamp, result)
    return result
  }

  if (def.effect === 'write' || def.auth === 'participant') return rt.database.transaction(run)
  const deferred: Array<() => void | Promise<void>> = []
  const result = await run(rt.database.db, (fn) => deferred.push(fn))
  for (const fn of deferred) await fn()
  return result
}

async function authenticate(db: Db, def: AnyAction, key: unknown): Promise<ParticipantRow | undefined> {
  if (def.auth !== 'participant') return undefined
  if (typeof key !== 'string') {
    if (def.keyOptional) return undefined
    throw new ServiceError('invalid_request', 'A participation key is required in the body field "key".')
  }
  const found = await findByKeyHash(db, hashSecret(key))
  if (!found || !secretMatches(key, found.keyHash) || found.state === 'rotated') {
    throw new ServiceError('invalid_key', 'The participation key is not valid.')
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
  return participant
}

function requireSecret(presented: unknown, configured: string | null, field: string): void {
  if (configured === null) throw new ServiceError('operator_only', 'Operator actions are disabled on this server.')
  if (typeof presented !== 'string' || !secretMatches(presented, hashSecret(configured))) {
    throw new ServiceError('operator_only', `The ${field} is not valid for this operator action.`)
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
