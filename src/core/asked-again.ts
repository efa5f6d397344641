/** How many once-asked keys are remembered per value the cache can keep. */
const SEEN_PER_ENTRY = 4

/**
 * The admission rule of the caches that keep only what is asked for again (the read cache, the
 * compressed answers): keys met once lately, oldest forgotten first. A value nobody repeats (a
 * one-off cursor, a crawler) would otherwise push out what pollers share, and every such value would
 * live through several young-generation collections and be promoted, so the old generation (and
 * RSS) grew with garbage under a stream of distinct reads.
 */
export class AskedAgain {
  private readonly once = new Set<string>()
  private readonly capacity: number

  /**
   * For a cache of `entries` values: it remembers SEEN_PER_ENTRY once-asked keys per value it can keep
   * (keys only: ~100 bytes each), so a key asked again within a few cache-fulls of others counts.
   */
  constructor(entries: number) {
    this.capacity = entries * SEEN_PER_ENTRY
  }

  /** True when key was met once lately (and is forgotten here: its value is kept now); else remembers it. */
  again(key: string): boolean {
    if (this.once.delete(key)) return true
    if (this.once.size >= this.capacity) {
      const oldest = this.once.values().next().value
      if (oldest !== undefined) this.once.delete(oldest)
    }
    this.once.add(key)
    return false
  }
}
