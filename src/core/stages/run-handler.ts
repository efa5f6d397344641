import type { Db, OnCommit } from '../../db/database.ts'
import { stampFor } from '../../store/public-stamp.ts'
import type { ActionContext } from '../action.ts'
import type { Runtime } from '../runtime.ts'
import type { RegisteredAction } from '../registry.ts'
import { authenticate, type Authenticated } from './authenticate.ts'
import { guardWritesIn } from './guard-writes.ts'

/** What the stages before the handler fixed for this call. */
export interface Call {
  entry: RegisteredAction
  input: Record<string, unknown>
  clientAddress: string | undefined
  now: Date
  /** Whether the writes-paused flag is still to be read in the transaction (guardWritesBefore). */
  pausedFlag: 'known' | 'unknown'
}

export interface HandlerOptions {
  /** In a `callsOut` action: each ctx.transaction(fn) is a transaction of its own. */
  step?: ActionContext['transaction']
  /** The key's participant may come from memory (core/known-authors.ts). */
  recall?: boolean
  /** Told who the key authenticated, for a write that remembers its author. */
  authenticated?: (author: Authenticated) => void
}

/**
 * Stage 6: authenticates, checks paused writes and runs the handler on `db` (the action's transaction,
 * or the shared handle for reads). A cacheable read is served from the read cache while the public
 * stamp, read before the data, is unchanged: a write landing in between only causes a later miss.
 */
export async function runHandler(
  rt: Runtime,
  call: Call,
  db: Db,
  onCommit: OnCommit,
  { step, recall = false, authenticated: told }: HandlerOptions = {},
): Promise<unknown> {
  const { def } = call.entry
  const secrets = rt.services.secrets
  const found = await authenticate(db, { secrets, knownAuthors: rt.knownAuthors }, def, call.input.key, recall)
  const keyExposure = found && 'exposed' in found ? found.exposed : undefined
  const authenticated = found && 'keyHash' in found ? found : undefined
  if (authenticated) told?.(authenticated)
  await guardWritesIn(db, def, authenticated, call.pausedFlag)
  const stamp = def.cacheable ? await stampFor(rt.database, db) : undefined
  const cache = rt.readCache
  const ctx: ActionContext = {
    db,
    now: call.now,
    random: rt.random,
    config: rt.config,
    participant: authenticated?.participant,
    ...(keyExposure ? { keyExposure } : {}),
    clientAddress: call.clientAddress,
    onCommit,
    transaction: step ?? ((fn) => fn(db)),
    shared: stamp === undefined ? (_key, read) => read() : (key, read) => cache.part(key, stamp, read),
    services: rt.services,
  }
  if (stamp === undefined) return def.handler(ctx, call.input)
  return cache.through(`${def.name} ${JSON.stringify(call.input)}`, stamp, () => def.handler(ctx, call.input))
}
