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

  /** `capacity` keys are remembered at most (keys only: ~100 bytes each). */
  constructor(capacity: number) {
    this.capacity = capacity
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
