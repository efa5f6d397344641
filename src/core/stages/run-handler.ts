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
  /** Whether the key's participant may come from memory (core/known-authors.ts). */
  recall: boolean
  /** Set by runHandler: who the key authenticated, for the write's finish. */
  author?: Authenticated
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
  step?: ActionContext['transaction'],
): Promise<unknown> {
  const { def } = call.entry
  const authenticated = await authenticate(
    db,
    { secrets: rt.services.secrets, knownAuthors: rt.knownAuthors },
    def,
    call.input.key,
    call.recall,
  )
  call.author = authenticated
  await guardWritesIn(db, def, authenticated, call.pausedFlag)
  const stamp = def.cacheable ? await stampFor(rt.database, db) : undefined
  const cache = rt.readCache
  const ctx: ActionContext = {
    db,
    now: call.now,
    random: rt.random,
    config: rt.config,
    participant: authenticated?.participant,
    ...(authenticated?.remembered ? { rememberedAuthor: authenticated } : {}),
    clientAddress: call.clientAddress,
    onCommit,
    transaction: step ?? ((fn) => fn(db)),
    shared: stamp === undefined ? (_key, read) => read() : (key, read) => cache.part(key, stamp, read),
    services: rt.services,
  }
  if (stamp === undefined) return def.handler(ctx, call.input)
  return cache.through(`${def.name} ${JSON.stringify(call.input)}`, stamp, () => def.handler(ctx, call.input))
}
