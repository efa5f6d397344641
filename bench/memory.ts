/**
 * node bench/memory.ts [--dialect sqlite|postgres|both] [--large N] [--participants N]
 *
 * The server's memory under the whole bench's reads at its large size, without the write runs: peak
 * RSS (the kernel's high-water mark) and peak anonymous memory (V8's heap, the allocator's arenas,
 * Buffers), as `npm start` runs it. The same reads as `npm run bench` (bench/run.ts), one sample each.
 */
import { mkdirSync } from 'node:fs'
import { openStore } from '../src/store/open.ts'
import { migrate } from '../src/db/migrate.ts'
import { peakAnonymousMb, peakRssMb, rssMb, startChild, stop } from './child.ts'
import { databaseUrl, freshDatabase, PEPPER, WORK } from './databases.ts'
import { ACCEPTS, latency, single, warmUp } from './load.ts'
import { missedPages, missedThreads } from './missed.ts'
import { seed, type Size } from './seed.ts'

const args = process.argv.slice(2)
const option = (name: string, fallback: string) => {
  const at = args.indexOf(`--${name}`)
  return at === -1 ? fallback : (args[at + 1] ?? fallback)
}
const dialects = option('dialect', 'both') === 'both' ? ['sqlite', 'postgres'] : [option('dialect', 'sqlite')]
const size: Size = {
  participants: Number(option('participants', '100000')),
  contributions: Number(option('large', '1000000')),
}
mkdirSync(WORK, { recursive: true })
const METRICS_TOKEN = 'bench-metrics-token-0123456789abcdef'

async function seeded(dialect: 'sqlite' | 'postgres'): Promise<string> {
  const url = await freshDatabase(dialect, 'clearing_bench_memory')
  const database = openStore(url)
  await migrate(database.db)
  const seeding = Date.now()
  await seed(database, { participants: 0, contributions: 0 }, size)
  await database.close()
  console.error(
    `${dialect}: seeded ${size.contributions} contributions in ${Math.round((Date.now() - seeding) / 1000)}s`,
  )
  return url
}

/** Where the anonymous memory is, as V8 and Node count it (prom-client's default metrics), in MB. */
async function heapFigures(base: string): Promise<string> {
  const text = await (await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text()
  const mb = (name: string) => {
    const value = new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, 'm').exec(text)?.[1]
    return value === undefined ? '?' : String(Math.round(Number(value) / 1048576))
  }
  return (
    `V8 heap total ${mb('nodejs_heap_size_total_bytes')} MB (used ${mb('nodejs_heap_size_used_bytes')}), ` +
    `external ${mb('nodejs_external_memory_bytes')} MB`
  )
}

for (const dialect of dialects as Array<'sqlite' | 'postgres'>) {
  // --reuse: the database an earlier run of this script seeded, to compare settings on the same data.
  const url = args.includes('--reuse') ? databaseUrl(dialect, 'clearing_bench_memory') : await seeded(dialect)

  const server = await startChild('src/main.ts', { DATABASE_URL: url, KEY_PEPPER: PEPPER, METRICS_TOKEN })
  const base = server.url
  const missed = { url: base, urls: missedPages(size.contributions) }
  try {
    const [, peakAnonymous] = await peakAnonymousMb(server.child, async () => {
      await warmUp(missed)
      await single('newest page, cache missed', missed)
      await single('thread, cache missed', { url: base, urls: missedThreads(size.contributions) })
      await single('newest page, cached', { url: `${base}/api/clearing?view=arrival&limit=25` })
      await latency('view=usage', [`${base}/api/clearing?view=usage`])
      await single('view=usage under load', { url: `${base}/api/clearing?view=usage` }, 10)
      await single('newest page, cache missed, compressed', { ...missed, headers: ACCEPTS })
      await latency('search', [`${base}/api/search?q=words&limit=20`])
    })
    console.log(`${dialect}: after the reads, ${await heapFigures(base)}`)
    console.log(
      `${dialect} @${size.contributions}: peak RSS ${peakRssMb(server.child)} MB, peak anonymous ${peakAnonymous} MB, ` +
        `RSS after the reads ${rssMb(server.child)} MB`,
    )
  } finally {
    await stop(server.child)
  }
}
