import type { Database } from '../db/database.ts'
import { hasPending, publicIdsOf, publishPending } from './public-ids.ts'

/**
 * Public-id publication (the SQL is in store/public-ids.ts). A write that creates a contribution or a
 * note revision gets a DrawnId for it: the public id on SQLite, a provisional one on PostgreSQL until
 * the row is published after commit. A DrawnId is an object so that no answer can carry it as a
 * number by mistake: the write returns a Publishing, and the pipeline builds the answer from the
 * public ids once the Publisher has made them public.
 */
export interface DrawnId {
  readonly drawn: number
}

export const drawnId = (drawn: number): DrawnId => ({ drawn })

/** The public id of a drawn one, given to a Publishing's answer. */
export type PublicIdOf = (id: DrawnId) => number

/** A write's answer, waiting for the public ids of the rows it drew. */
export class Publishing<T> {
  readonly ids: readonly DrawnId[]
  readonly answer: (publicId: PublicIdOf) => T

  constructor(ids: readonly DrawnId[], answer: (publicId: PublicIdOf) => T) {
    this.ids = ids
    this.answer = answer
  }
}

export const whenPublic = <T>(ids: readonly DrawnId[], answer: (publicId: PublicIdOf) => T): Publishing<T> =>
  new Publishing(ids, answer)

/** How many provisional -> public pairs the publisher remembers (a few seconds of writes). */
const RECENT_IDS = 4096

/**
 * Makes committed rows public (store/public-ids.ts) on PostgreSQL. Writers that finished at about the
 * same time share one publication: while one runs, later requests wait for the next, which starts as
 * soon as the current one ends, so each request's rows were committed before the run that publishes
 * them began. On SQLite ids are public at insert and nothing runs.
 */
export class Publisher {
  private readonly database: Database
  private running: Promise<Map<number, number>> | undefined
  private next: Promise<Map<number, number>> | undefined
  /** What the next run publishes: the rows its callers named, or every provisional row. */
  private nextScope: Set<number> | 'all' | undefined
  /**
   * The pairs the latest runs gave. A run can publish a row committed just before it read, while
   * the row's writer goes on to wait for the next run (it cannot know the earlier one saw it): the
   * writer finds its id here instead of in a query of its own. A pair never changes once given.
   */
  private readonly recent = new Map<number, number>()

  constructor(database: Database) {
    this.database = database
  }

  get active(): boolean {
    return this.database.dialect === 'postgres'
  }

  /** A write's result as it answers: a Publishing's answer built from the public ids it waited for. */
  async answer(result: unknown): Promise<unknown> {
    if (!(result instanceof Publishing)) return result
    const provisional = this.active ? result.ids.map((id) => id.drawn).filter((drawn) => drawn < 0) : []
    if (provisional.length === 0) return result.answer((id) => id.drawn)
    const published = await this.flush(provisional)
    const found = new Map<number, number>()
    for (const id of provisional) {
      const given = published.get(id) ?? this.recent.get(id)
      if (given !== undefined) found.set(id, given)
    }
    // Usually this instance's runs published every one of them; another instance's run may have.
    const elsewhere = provisional.filter((id) => !found.has(id))
    if (elsewhere.length > 0)
      for (const [id, given] of await publicIdsOf(this.database.db, elsewhere)) found.set(id, given)
    return result.answer(({ drawn }) => {
      const given = drawn > 0 ? drawn : found.get(drawn)
      if (given === undefined) throw new Error(`row ${drawn} was committed but is not public`)
      return given
    })
  }

  /** Publishes rows a crashed or interrupted writer left behind; run on a timer. */
  async sweep(): Promise<void> {
    if (this.active && (await hasPending(this.database.db))) await this.flush()
  }

  /**
   * Resolves once the committed rows with these provisional ids (without ids: every row committed
   * before the call) are public, with the ids the run that made them public gave (provisional ->
   * public). Rows another instance published are not in it.
   */
  flush(ids?: readonly number[]): Promise<Map<number, number>> {
    if (!this.running) {
      this.running = this.run(ids).finally(() => {
        this.running = undefined
      })
      return this.running
    }
    // The current run may have read its rows before this caller committed: wait for the next one,
    // however the current one ends (a failed run fails its own callers, not the ones after it). It
    // publishes what all its callers asked for.
    if (ids === undefined) this.nextScope = 'all'
    else if (this.nextScope !== 'all') {
      this.nextScope ??= new Set()
      for (const id of ids) this.nextScope.add(id)
    }
    const again = () => {
      const scope = this.nextScope
      this.next = undefined
      this.nextScope = undefined
      return this.flush(scope instanceof Set ? [...scope] : undefined)
    }
    this.next ??= this.running.then(again, again)
    return this.next
  }

  private async run(ids: readonly number[] | undefined): Promise<Map<number, number>> {
    const published = await this.database.priority.transaction((tx) => publishPending(tx, ids))
    for (const [provisional, id] of published) this.recent.set(provisional, id)
    for (const oldest of this.recent.keys()) {
      if (this.recent.size <= RECENT_IDS) break
      this.recent.delete(oldest)
    }
    return published
  }
}
