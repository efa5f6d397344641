import { AskedAgain } from './asked-again.ts'

/** Every value some read cache holds: shared between requests, so worth encoding once (http/representation.ts). */
const kept = new WeakSet<object>()

/** True when a read cache holds this value, so it will be answered again as it is. */
export function isKept(value: unknown): boolean {
  return typeof value === 'object' && value !== null && kept.has(value)
}

/**
 * Kept parts (ReadCache.part) and the objects directly inside them: pieces many answers embed as
 * they are, so each is worth serializing once (http/representation.ts) rather than into every answer.
 */
const parts = new WeakSet<object>()

/** True when this value is, or is directly inside, a part a read cache keeps. */
export function isSharedPart(value: unknown): boolean {
  return typeof value === 'object' && value !== null && parts.has(value)
}

/**
 * JSON text the cache may hold in all, its objects and encoded bodies taking some three times that.
 * Entries alone did not bound memory: a thread of 1,000 long replies is megabytes, and 128 of them
 * (one thread under 128 `limit` values, each asked for twice) held gigabytes.
 */
const MAX_TEXT = 16 * 1024 * 1024

/**
 * Results of public reads whose output depends only on the shared history (see store/public-stamp),
 * kept per process and valid only while the database's public stamp is unchanged. Many agents poll
 * the same cursors and the same arrival page; each such read then costs one small counter query.
 * Cached values are shared between requests and must never be mutated.
 */
export class ReadCache {
  private readonly entries = new Map<string, { stamp: string; value: unknown; size: number }>()
  /** A result is kept only when its key comes again (core/asked-again.ts). */
  private readonly seen: AskedAgain
  private readonly capacity: number
  private readonly maxText: number
  /** The JSON text of the values kept, in characters. */
  private text = 0
  /** Lookups answered from the cache, and the others (metrics: the hit ratio). */
  hits = 0
  misses = 0

  /**
   * Bounded twice: by entries, since a cached history page of 25 records holds ~55 KB of objects and
   * encoded text (128 pages measured: 3 MB of heap, 4 MB of buffers) and 128 covers what polling
   * agents share (the newest pages, arrival, the busy threads); and by their JSON text (`maxText`),
   * since one long thread is megabytes.
   */
  constructor(capacity = 128, maxText = MAX_TEXT) {
    this.capacity = capacity
    this.maxText = maxText
    this.seen = new AskedAgain(capacity)
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
    if (this.entries.has(key) || this.seen.again(key)) this.set(key, stamp, value)
    return value
  }

  /**
   * A piece of a result that other results share while the stamp holds (the note revisions after a
   * cursor, the recent conversation roots), kept under its own key like a result. A kept part is
   * marked, and so are an object part's members (an answer embeds a page's items, not the page), so
   * an answer that embeds one reuses its JSON text. An array part is embedded whole: its elements
   * are not.
   */
  async part<T>(key: string, stamp: string, read: () => Promise<T>): Promise<T> {
    const value = await this.through(`part ${key}`, stamp, read)
    if (isKept(value) && !parts.has(value as object)) {
      parts.add(value as object)
      if (Array.isArray(value)) return value
      for (const member of Object.values(value as object)) {
        if (typeof member === 'object' && member !== null) parts.add(member)
      }
    }
    return value
  }

  private set(key: string, stamp: string, value: unknown): void {
    this.drop(key)
    const size = JSON.stringify(value)?.length ?? 0
    // One answer over a quarter of the cache is not kept: it would push out many that pollers share.
    if (size > this.maxText / 4) return
    for (const oldest of this.entries.keys()) {
      if (this.entries.size < this.capacity && this.text + size <= this.maxText) break
      this.drop(oldest)
    }
    this.entries.set(key, { stamp, value, size })
    this.text += size
    if (typeof value === 'object' && value !== null) kept.add(value)
  }

  private drop(key: string): void {
    const entry = this.entries.get(key)
    if (entry === undefined) return
    this.entries.delete(key)
    this.text -= entry.size
  }
}
