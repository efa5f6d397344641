import type { Database } from '../db/database.ts'
import { hasPending, publicIdsOf, publishPending } from '../store/public-ids.ts'

/** How many provisional -> public pairs the publisher remembers (a few seconds of writes). */
const RECENT_IDS = 4096

/**
 * Makes committed rows public (store/public-ids.ts) on PostgreSQL. Writers that finished at about the
 * same time share one publication: while one runs, later requests wait for the next, which starts as
 * soon as the current one ends, so each request's rows were committed before the run that publishes
 * them began. On SQLite ids are public at insert and every call is a no-op.
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

  /**
   * Resolves once the committed rows with these provisional ids (without ids: every row committed
   * before the call) are public, with the ids the run that made them public gave (provisional ->
   * public). Rows another instance published are not in it.
   */
  flush(ids?: readonly number[]): Promise<Map<number, number>> {
    if (!this.active) return Promise.resolve(new Map())
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

  /**
   * A write's result with its provisional ids replaced by public ones. Provisional ids are the only
   * negative integers an action returns, under `id` or a field ending in `_id`.
   */
  async resolve(result: unknown): Promise<unknown> {
    if (!this.active) return result
    const provisional = collect(result)
    if (provisional.length === 0) return result
    const published = await this.flush(provisional)
    const found = new Map<number, number>()
    for (const id of provisional) {
      const given = published.get(id) ?? this.recent.get(id)
      if (given !== undefined) found.set(id, given)
    }
    // Usually this instance's runs published every one of them; another instance's run may have.
    const elsewhere = provisional.filter((id) => !found.has(id))
    if (elsewhere.length === 0) return replace(result, found)
    return replace(result, new Map([...found, ...(await publicIdsOf(this.database.db, elsewhere))]))
  }

  /** Publishes rows a crashed or interrupted writer left behind; run on a timer. */
  async sweep(): Promise<void> {
    if (this.active && (await hasPending(this.database.db))) await this.flush()
  }
}

const isIdField = (field: string) => field === 'id' || field.endsWith('_id')

function collect(value: unknown, found: number[] = []): number[] {
  if (Array.isArray(value)) for (const item of value) collect(item, found)
  else if (typeof value === 'object' && value !== null) {
    for (const [field, child] of Object.entries(value)) {
      if (isIdField(field) && typeof child === 'number' && Number.isInteger(child) && child < 0) found.push(child)
      else collect(child, found)
    }
  }
  return found
}

function replace(value: unknown, ids: Map<number, number>): unknown {
  if (Array.isArray(value)) return value.map((item) => replace(item, ids))
  if (typeof value !== 'object' || value === null) return value
  return Object.fromEntries(
    Object.entries(value).map(([field, child]) => [
      field,
      isIdField(field) && typeof child === 'number' && child < 0 ? (ids.get(child) ?? child) : replace(child, ids),
    ]),
  )
}
