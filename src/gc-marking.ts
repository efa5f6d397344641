import { setFlagsFromString } from 'node:v8'
import { isPostgresUrl } from './store/database.ts'

/**
 * On SQLite, V8's full collections mark in one pause instead of incrementally (docs/performance.md,
 * "Incremental marking"). An incremental cycle runs for 40-55 ms under load while requests keep
 * allocating, and everything they allocate in that time counts as alive until the next cycle: the
 * first collections under the cache-missed pages at 1M found 42-50 MB alive where ~31 MB is, the old
 * generation's limit followed, and the pages it grew to stayed pooled. Marked in one pause (21-27 ms
 * every few seconds under that load) a collection finds the ~31 MB. The most RSS while serving was
 * 163-178 MB against 183-199 (eight alternated pairs), at the same read throughput and p99, with
 * writes ~5% slower. On PostgreSQL a request's objects wait across turns for the database and more of
 * them reach the old generation, on the scavenger's helper threads, and without incremental marking
 * that generation overshot its limit (collections at 80-142 MB, RSS 231-305 MB against 170-183), so
 * there V8 keeps its default.
 *
 * Set at start, before the server's modules load. V8 reads this flag only when it decides how its
 * next full collection runs, so a change applies from then on. Node warns that flags set after start
 * may behave unpredictably, which is true of flags that change how code is compiled or how the heap
 * is laid out, not of this one. A flag given on the command line (or in NODE_OPTIONS) wins.
 * @returns true when marking was set to run in one pause
 */
export function chooseMarking(databaseUrl: string, execArgv: readonly string[] = process.execArgv): boolean {
  const given = [...execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)].some((flag) =>
    /^--(no-)?incremental[-_]marking$/.test(flag),
  )
  if (given || isPostgresUrl(databaseUrl)) return false
  setFlagsFromString('--no-incremental-marking')
  return true
}
