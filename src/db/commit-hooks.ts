import type { Db, WriteTx } from './types.ts'

/**
 * Work a feature does in a transaction just before its COMMIT, over what the transaction's writes
 * collected for it: the usage deltas of every write summed into one insert, say. Features register
 * their hooks when the store opens the database; the engine knows nothing of what they do.
 */
export interface CommitHook<T = unknown> {
  readonly name: string
  /** An empty collection, made for a write the first time it collects. */
  start(): T
  /** Writes what the kept writes collected (in their order), inside the transaction, before COMMIT. */
  finish(tx: WriteTx, collected: readonly T[]): Promise<void>
  /** Runs before every COMMIT, whether or not a write collected anything (work found in the database). */
  always?: boolean
}

/**
 * The hooks of one open transaction that shares its COMMIT between writes (the SQLite group commit).
 * Each write's collections are kept when the write is, and dropped with it when it is refused.
 */
export class CommitScope {
  private readonly hooks: readonly CommitHook[]
  private readonly kept = new Map<CommitHook, unknown[]>()
  private current = new Map<CommitHook, unknown>()

  constructor(hooks: readonly CommitHook[]) {
    this.hooks = hooks
  }

  collection<T>(hook: CommitHook<T>): T | undefined {
    if (!this.hooks.includes(hook as CommitHook)) return undefined
    let collected = this.current.get(hook as CommitHook) as T | undefined
    if (collected === undefined) {
      collected = hook.start()
      this.current.set(hook as CommitHook, collected)
    }
    return collected
  }

  /** The running write succeeded: its collections join the transaction's. */
  keep(): void {
    for (const [hook, collected] of this.current) {
      const list = this.kept.get(hook)
      if (list) list.push(collected)
      else this.kept.set(hook, [collected])
    }
    this.current = new Map()
  }

  /** The running write was refused: what it collected goes with it. */
  drop(): void {
    this.current = new Map()
  }

  async finish(tx: WriteTx): Promise<void> {
    for (const hook of this.hooks) {
      const collected = this.kept.get(hook)
      if (collected || hook.always) await hook.finish(tx, collected ?? [])
    }
  }
}

/** The scope of each connection while a shared transaction is open on it (set by the group commit). */
const open = new WeakMap<Db, CommitScope>()

export function openScope(connection: Db, hooks: readonly CommitHook[]): CommitScope {
  const scope = new CommitScope(hooks)
  open.set(connection, scope)
  return scope
}

export function closeScope(connection: Db): void {
  open.delete(connection)
}

/**
 * The running write's collection for this hook, when its transaction defers the hook's work to its
 * COMMIT; undefined otherwise (a transaction that commits alone), and the caller writes at once.
 */
export function collectFor<T>(tx: Db, hook: CommitHook<T>): T | undefined {
  return open.get(tx)?.collection(hook)
}
