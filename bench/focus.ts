/**
 * node bench/focus.ts sqlite|postgres reads|writes
 *
 * One part of `npm run bench`, small and quick, for profiling and for comparing a change with the
 * code before it in one sitting: `reads` seeds 10,000 contributions and 450 participants and runs the
 * cache-missed newest page (plain, then compressed as fetch asks for it), the cache-missed thread and
 * the cached arrival page; `writes` runs contribute and join with 50 participants. It prints the
 * server's RSS after the read runs, and its peak RSS and peak anonymous memory under them. BENCH_CPU_PROF=dir writes the server's CPU profile there
 * (bench/child.ts); BENCH_SECONDS sets the length of each run; BENCH_CONTRIBUTIONS and
 * BENCH_PARTICIPANTS the size the reads are seeded at; REUSE_DB=url reads (or writes into) an already
 * seeded database instead (to compare two versions at 1M without seeding twice).
 */
import { mkdirSync, readFileSync } from 'node:fs'
import { peakAnonymousMb, peakRssMb, rssMb, startChild, stop } from './child.ts'
import { freshDatabase, PEPPER, WORK, type BenchDialect } from './databases.ts'
import { ACCEPTS, load, single } from './load.ts'
import { missedPages, missedThreads } from './missed.ts'
import { FOCUS_SIZE as SIZE, seedEmpty } from './seed.ts'
import { measureWrites } from './writes.ts'

const [dialect = 'sqlite', part = 'reads'] = process.argv.slice(2) as [BenchDialect?, string?]
mkdirSync(WORK, { recursive: true })

if (part === 'writes') {
  const url = process.env.REUSE_DB ?? (await freshDatabase(dialect, 'clearing_focus_writes'))
  await measureWrites(single, url, PEPPER, undefined)
} else {
  const reuse = process.env.REUSE_DB
  const url = reuse ?? (await freshDatabase(dialect, 'clearing_focus_reads'))
  if (!reuse) await seedEmpty(url, SIZE)
  const server = await startChild('src/main.ts', { DATABASE_URL: url, KEY_PEPPER: PEPPER })
  const rss = (when: string) =>
    console.error(`  server RSS ${when}: ${rssMb(server.child)} MB (at most ${peakRssMb(server.child)} MB so far)`)
  try {
    rss('idle')
    const newest = missedPages(SIZE.contributions)
    const [, peakAnonymous] = await peakAnonymousMb(server.child, async () => {
      await load('newest page of 25, cache missed', { url: server.url, urls: newest })
      rss('after it')
      await load('newest page of 25, cache missed, compressed', { url: server.url, urls: newest, headers: ACCEPTS })
      await load('thread, cache missed', { url: server.url, urls: missedThreads(SIZE.contributions) })
      await load('newest page of 25, cached', { url: `${server.url}/api/clearing?view=arrival&limit=25` })
    })
    rss('at the end')
    console.error(`  server peak RSS ${peakRssMb(server.child)} MB, peak anonymous ${peakAnonymous} MB under the reads`)
    if (process.env.SMAPS) console.error(mappings(server.child.pid as number))
  } finally {
    await stop(server.child)
  }
}

/** The server's resident memory by mapping (the V8 heap is anonymous; malloc's main arena is [heap]). */
function mappings(pid: number): string {
  const sizes = new Map<string, number>()
  let name = ''
  for (const line of readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
    const head = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/.exec(line)
    if (head) name = head[1] || '[anonymous]'
    const rss = /^Rss:\s+(\d+)/.exec(line)
    if (rss) sizes.set(name, (sizes.get(name) ?? 0) + Number(rss[1]))
  }
  return [...sizes]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 4)
    .map(([mapping, kb]) => `  ${Math.round(kb / 1024)} MB ${mapping}`)
    .join('\n')
}
