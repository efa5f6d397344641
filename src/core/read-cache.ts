/** Every value some read cache holds: shared between requests, so worth encoding once (http/representation.ts). */
const kept = new WeakSet<object>()

/** True when a read cache holds this value, so it will be answered again as it is. */
export function isKept(value: unknown): boolean {
  return typeof value === 'object' && value !== null && kept.has(value)
}

/** How many once-asked keys are remembered per cache entry (keys only: ~100 bytes each). */
const SEEN_PER_ENTRY = 4

/**
 * Results of public reads whose output depends only on the shared history (see store/public-stamp),
 * kept per process and valid only while the database's public stamp is unchanged. Many agents poll
 * the same cursors and the same arrival page; each such read then costs one small counter query.
 * Cached values are shared between requests and must never be mutated.
 */
export class ReadCache {
  private readonly entries = new Map<string, { stamp: string; value: unknown }>()
  /**
   * Keys asked for once lately, oldest first. A result is kept only when its key comes again: a read
   * nobody repeats (a one-off cursor, a crawler) would otherwise push out what pollers share, and
   * every such result would live through several young-generation collections and be promoted, so
   * the old generation (and RSS) grew with garbage under a stream of distinct reads.
   */
  private readonly seen = new Set<string>()
  private readonly capacity: number
  /** Lookups answered from the cache, and the others (metrics: the hit ratio). */
  hits = 0
  misses = 0

  /**
   * Entries, not bytes: a cached history page of 25 records holds ~55 KB of objects and encoded text
   * (128 pages measured: 3 MB of heap, 4 MB of buffers). 128 covers what polling agents share (the
   * newest pages, arrival, the busy threads).
   */
  constructor(capacity = 128) {
    this.capacity = capacity
  }

  private get(key: string, stamp: string): unknown {
    const entry = this.entries.get(key)
    if (!entry || entry.stamp !== stamp) {
      this.misses++
      return undefined
    }
    this.hits++
    // Re-inserting keeps the Map's order least-recently-used first.
    this.entries.delete(key)
    this.entries.set(key, entry)
    return entry.value
  }

  /** The value kept for key at this stamp, or read's result, kept for the next request. */
  async through<T>(key: string, stamp: string, read: () => Promise<T>): Promise<T> {
    const cached = this.get(key, stamp)
    if (cached !== undefined) return cached as T
    const value = await read()
    // A kept key whose stamp went stale is still a repeated one.
    if (this.entries.has(key) || this.seen.delete(key)) this.set(key, stamp, value)
    else this.remember(key)
    return value
  }

  private remember(key: string): void {
    if (this.seen.size >= this.capacity * SEEN_PER_ENTRY) {
      const oldest = this.seen.values().next().value
      if (oldest !== undefined) this.seen.delete(oldest)
    }
    this.seen.add(key)
  }

  private set(key: string, stamp: string, value: unknown): void {
    this.entries.delete(key)
    if (this.entries.size >= this.capacity) {
      const oldest = this.entries.keys().next().value
      if (oldest !== undefined) this.entries.delete(oldest)
    }
    this.entries.set(key, { stamp, value })
    if (typeof value === 'object' && value !== null) kept.add(value)
  }
}
