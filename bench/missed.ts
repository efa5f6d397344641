/**
 * The request paths of the reads that miss the read cache: 5,000 distinct cursors or thread ids, ten
 * times what the cache keeps, in an order that spreads them, so every request misses. One definition
 * for the whole bench, its focused parts and the interleaved comparison.
 */
const spread = (base: number) => Array.from({ length: 5000 }, (_, i) => base + ((i * 7919) % 5000))

/** The newest page of 25 after each of the 5,000 cursors nearest the end of `contributions`. */
export const missedPages = (contributions: number): string[] =>
  spread(Math.max(0, contributions - 5025)).map((after) => `/api/clearing?view=history&after=${after}&limit=25`)

/** The thread of each of the 5,000 newest contributions. */
export const missedThreads = (contributions: number): string[] =>
  spread(Math.max(1, contributions - 5000)).map((id) => `/api/clearing?view=thread&contribution_id=${id}`)
