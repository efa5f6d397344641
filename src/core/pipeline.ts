import type { ActionContext } from './action.ts'
import { ServiceError, toServiceError } from '../services/errors.ts'
import { CheckFailed } from '../db/pg-statements.ts'
import type { RegisteredAction } from './registry.ts'
import type { CallInfo, Runtime } from './runtime.ts'
import { authorize } from './stages/authorize.ts'
import { guardWritesBefore } from './stages/guard-writes.ts'
import type { Authenticated } from './stages/authenticate.ts'
import { runHandler, type Call } from './stages/run-handler.ts'
import { refuseMistypedKeys } from './stages/key-checksum.ts'
import { refuseSecrets, revokeKeysInRefused } from './stages/scan-secrets.ts'
import { throttled } from './stages/throttle.ts'
import { validated } from './stages/validate.ts'

export type { CallInfo, Runtime } from './runtime.ts'

/**
 * The one way any transport runs an action, in plain stages: validate, throttle secret guessing,
 * authorize, guard paused writes, then authenticate and run the handler (writes in one transaction),
 * and finish: a write's ids are made public before it answers. REST and MCP both call this, so policy
 * cannot drift apart. With contracts checked (tests), every result must match the output schema and
 * every refusal the published error list.
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

async function execute(rt: Runtime, entry: RegisteredAction, rawInput: unknown, info: CallInfo): Promise<unknown> {
  const { def } = entry
  const { secretScanner: scanner, secrets } = rt.services
  const scan = { scanner, database: rt.database, secrets }
  let input: Record<string, unknown>
  try {
    input = validated(entry, rawInput, info.source) as Record<string, unknown>
  } catch (err) {
    if (def.effect === 'write') await revokeKeysInRefused(scan, entry, rawInput, rt.clock.now())
    throw err
  }
  const now = rt.clock.now()
  if (entry.textFields.length > 0) await refuseSecrets(scan, entry, input, now)
  const guard = { keyGuard: rt.keyGuard, database: rt.database, secrets }
  return throttled(guard, entry, input, info.clientAddress, now, async () => {
    refuseMistypedKeys(entry, input)
    authorize(rt.config, def, input)
    const keyed = def.auth === 'participant' && typeof input.key === 'string'
    const pausedFlag = await guardWritesBefore(rt.database, def, keyed)
    return run(rt, { entry, input, clientAddress: info.clientAddress, now, pausedFlag })
  })
}

/**
 * Where the handler runs: a write in one transaction, then its provisional ids (PostgreSQL) are made
 * public before it answers; a participant's read in a transaction (one snapshot with its key); other
 * reads, and actions that call out (each step commits on its own, see ActionDef.callsOut), on the
 * shared handle.
 */
async function run(rt: Runtime, call: Call): Promise<unknown> {
  const { def } = call.entry
  if (!def.callsOut && def.effect === 'write') return write(rt, call)
  if (!def.callsOut && def.auth === 'participant') {
    return rt.database.transaction((tx, onCommit) => runHandler(rt, call, tx, onCommit))
  }
  const deferred: Array<() => void | Promise<void>> = []
  const step: ActionContext['transaction'] = (fn) => rt.database.transaction((tx) => fn(tx))
  const result = await runHandler(rt, call, rt.database.db, (fn) => deferred.push(fn), {
    step: def.callsOut ? step : undefined,
  })
  rt.database.afterCommit(deferred)
  return result
}

/**
 * A write in one transaction, answered once the ids it drew are public. A participant's write may be
 * given its author as this instance last left it instead of a read (core/known-authors.ts): if that
 * author is no longer so, or the write is refused, it runs again from a fresh read; one that succeeds
 * leaves its author remembered as its write left it (services/activity.ts, usageOf).
 */
async function write(rt: Runtime, call: Call): Promise<unknown> {
  const remembers = call.entry.def.auth === 'participant'
  let author: Authenticated | undefined
  const once = async (recall: boolean) => {
    const options = { recall, authenticated: (given: Authenticated) => (author = given) }
    return rt.publisher.answer(
      await rt.database.transaction((tx, onCommit) => runHandler(rt, call, tx, onCommit, options)),
    )
  }
  let result: unknown
  try {
    result = await once(remembers)
  } catch (err) {
    const remembered = author?.remembered ? author : undefined
    if (!remembered || !(err instanceof CheckFailed || err instanceof ServiceError)) throw err
    rt.knownAuthors.readAgainFor(remembered.keyHash)
    result = await once(false)
  }
  if (remembers && author?.worthRemembering) rt.knownAuthors.remember(author.keyHash, author.participant)
  return result
}
