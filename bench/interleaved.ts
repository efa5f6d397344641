/**
 * node bench/interleaved.ts LABEL=CHECKOUT[=DATABASE_URL] [LABEL=CHECKOUT[=DATABASE_URL] ...]
 *
 * Compares versions of the server on this machine, whose speed drifts by a third within minutes and
 * more between them: runs taken one after another (bench/focus.ts) then measure the drift as much as the
 * change. Here every version serves at once, each from its checkout (`src/main.ts` as `npm start` runs
 * it) and its own seeded database, and they take turns: a run each (BENCH_SECONDS, default 5; 2 is enough),
 * the order reversed every round, for ROUNDS rounds (default 12). It prints each version's median
 * req/s and its server's CPU time per request (user and system, from /proc), which drift touches less.
 * A version given without a database gets a fresh one (`clearing_ab_LABEL`, DIALECT sqlite or postgres),
 * seeded by its checkout's own migrations and bench/seed.ts, at bench/focus.ts's size (BENCH_CONTRIBUTIONS,
 * BENCH_PARTICIPANTS); READ=thread runs the cache-missed thread instead of the cache-missed newest page.
 * WRITE=contribute or WRITE=join runs that write load of bench/writes.ts instead, each version writing
 * into a database of its own (a fresh, empty one unless given), as `bench/focus.ts writes` does.
 * Two copies of one version (an A/A run) show what difference this method calls noise.
 */
import type autocannon from 'autocannon'
import { existsSync, mkdirSync, readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { startChild, stop, type Child } from './child.ts'
import { freshDatabase, PEPPER, WORK, type BenchDialect } from './databases.ts'
import { load, warmUp } from './load.ts'
import { missedPages, missedThreads } from './missed.ts'
import { FOCUS_SIZE, seedEmpty, type SeedCode } from './seed.ts'
import { WRITE_SERVER_ENV, writeLoads } from './writes.ts'

const ROUNDS = Number(process.env.ROUNDS ?? 12)
const { contributions } = FOCUS_SIZE
const urls = process.env.READ === 'thread' ? missedThreads(contributions) : missedPages(contributions)
const write = process.env.WRITE as 'contribute' | 'join' | undefined
if (write !== undefined && write !== 'contribute' && write !== 'join') throw new Error('WRITE is contribute or join')

const dialect = (process.env.DIALECT ?? 'sqlite') as BenchDialect
mkdirSync(WORK, { recursive: true })

const versions = []
for (const arg of process.argv.slice(2)) {
  const [label, path, given] = arg.split('=')
  if (!label || !path) throw new Error(`expected LABEL=CHECKOUT[=DATABASE_URL], got ${arg}`)
  const checkout = resolve(path)
  const name = `clearing_ab_${label}`
  const databaseUrl = given ?? (write ? await freshDatabase(dialect, name) : await seeded(checkout, name))
  versions.push({ label, checkout, databaseUrl, rps: [] as number[], cpu: [] as number[] })
}
if (versions.length < 2) throw new Error('give at least two versions to compare')

/** A fresh database seeded by the checkout's own code, so each version reads the schema it wrote. */
async function seeded(checkout: string, name: string): Promise<string> {
  const url = await freshDatabase(dialect, name)
  const [opening, migrations, seeding] = await Promise.all([
    import(inCheckout(checkout, ['src/store/open.ts', 'src/store/database.ts'])),
    import(inCheckout(checkout, ['src/db/migrate.ts', 'src/store/migrations/index.ts'])),
    import(`${checkout}/bench/seed.ts`),
  ])
  const openDatabase = opening.openStore ?? opening.openDatabase
  await seedEmpty(url, FOCUS_SIZE, { openDatabase, ...migrations, ...seeding } as SeedCode)
  return url
}

/** The first of these paths the checkout has: the engine moved from src/store to src/db. */
function inCheckout(checkout: string, paths: string[]): string {
  const found = paths.map((path) => `${checkout}/${path}`).find((path) => existsSync(path))
  if (!found) throw new Error(`${checkout} has none of ${paths.join(', ')}`)
  return found
}

/** The process's CPU time so far, in microseconds (utime and stime, in Linux's USER_HZ ticks of 10 ms). */
function cpuMicros(server: Child): number {
  const fields = readFileSync(`/proc/${server.child.pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? []
  return (Number(fields[11]) + Number(fields[12])) * 10_000
}

const servers: Child[] = []
try {
  const env = write ? WRITE_SERVER_ENV : {}
  for (const version of versions) {
    const { checkout, databaseUrl } = version
    servers.push(await startChild(`${checkout}/src/main.ts`, { DATABASE_URL: databaseUrl, KEY_PEPPER: PEPPER, ...env }))
  }
  const loads: Array<autocannon.Options & { urls?: string[] }> = []
  for (const server of servers) {
    const writes = write && (await writeLoads(server.url))
    loads.push(writes ? (write === 'join' ? writes.joins : writes.contributions) : { url: server.url, urls })
  }
  for (const opts of loads) await warmUp(opts)
  for (let round = 0; round < ROUNDS; round++) {
    const order = versions.map((_, i) => (round % 2 === 0 ? i : versions.length - 1 - i))
    for (const i of order) {
      const [version, server, opts] = [versions[i], servers[i], loads[i]] as [
        (typeof versions)[number],
        Child,
        (typeof loads)[number],
      ]
      const before = cpuMicros(server)
      const measured = await load(version.label, opts, 50, (m) => m)
      version.rps.push(measured.rps)
      version.cpu.push((cpuMicros(server) - before) / (measured.requests ?? NaN))
    }
  }
} finally {
  for (const server of servers) await stop(server.child)
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN
const [first] = versions
for (const version of versions) {
  const share = first ? ` (${((median(version.rps) / median(first.rps)) * 100).toFixed(0)}% of ${first.label})` : ''
  console.log(
    `${version.label}: ${median(version.rps)} req/s${share}, ${median(version.cpu).toFixed(0)} µs of CPU a request;` +
      ` runs ${version.rps.join(' ')}`,
  )
}
