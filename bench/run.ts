/**
 * npm run bench [-- --large N] : Clearing's performance budgets (DESIGN.md) measured as ratios
 * against a bare Fastify hello-world in the same run, on the same machine. Servers run as child
 * processes so the load generator and the server do not share an event loop.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type AddressInfo } from 'node:net'
import { join } from 'node:path'
import autocannon from 'autocannon'
import { openDatabase } from '../src/store/database.ts'
import { migrate } from '../src/store/migrations/index.ts'
import { seed } from './seed.ts'

const args = process.argv.slice(2)
const LARGE = Number(args[args.indexOf('--large') + 1] || 1_000_000)
const SMALL = 10_000
const DURATION = Number(process.env.BENCH_SECONDS ?? 5)
const WORK = join(process.cwd(), '.bench')
/** The node flags of `npm start`, so the bench measures the server as it is run. */
const SERVE_FLAGS = (
  /node (.*?)src\/main\.ts/.exec(JSON.parse(readFileSync('package.json', 'utf8')).scripts.start)?.[1] ?? ''
)
  .split(' ')
  .filter(Boolean)

interface Measured {
  name: string
  rps: number
  p99: number
}

async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise((resolve) => server.close(resolve))
  return port
}

/** Starts a server child and waits until it answers. Request logging is off (LOG_LEVEL=warn) as in the baseline. */
async function startChild(script: string, env: Record<string, string>): Promise<{ child: ChildProcess; url: string }> {
  const port = await freePort()
  const args = script.endsWith('main.ts') ? [...SERVE_FLAGS, script, 'serve'] : [script]
  const child = spawn(process.execPath, args, {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'inherit', 'inherit'],
  })
  const url = `http://127.0.0.1:${port}`
  for (let attempt = 0; attempt < 200; attempt++) {
    if (child.exitCode !== null) throw new Error(`${script} exited early (${child.exitCode})`)
    const up = await fetch(url + (script.endsWith('main.ts') ? '/healthz' : '/')).then(
      (r) => r.ok,
      () => false,
    )
    if (up) return { child, url }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`${script} did not start`)
}

async function load(name: string, opts: autocannon.Options): Promise<Measured> {
  const result = await autocannon({ connections: 50, duration: DURATION, ...opts })
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`${name}: ${result.non2xx} non-2xx and ${result.errors} errors`)
  }
  return { name, rps: Math.round(result.requests.average), p99: result.latency.p99 }
}

function rssMb(child: ChildProcess): number {
  const status = readFileSync(`/proc/${child.pid}/status`, 'utf8')
  return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024)
}

async function stop(child: ChildProcess): Promise<void> {
  await new Promise((resolve) => {
    child.once('exit', resolve)
    child.kill('SIGTERM')
  })
}

/** Read endpoints at one history size; the server is started fresh on the seeded file. */
async function measureReads(file: string, size: number): Promise<{ results: Measured[]; rss: number }> {
  const { child, url } = await startChild('src/main.ts', { DATABASE_URL: `sqlite:${file}` })
  try {
    const middle = Math.floor(size / 2)
    const results = [
      await load(`history page of 50 @${size}`, { url: `${url}/api/clearing?view=history&after=${middle}&limit=50` }),
      await load(`arrival @${size}`, { url: `${url}/api/clearing?view=arrival` }),
      await load(`thread @${size}`, { url: `${url}/api/clearing?view=thread&contribution_id=${middle + 5}` }),
    ]
    return { results, rss: rssMb(child) }
  } finally {
    await stop(child)
  }
}

async function measureWrites(file: string): Promise<Measured> {
  const { child, url } = await startChild('src/main.ts', {
    DATABASE_URL: `sqlite:${file}`,
    // The bench measures raw write throughput, so the per-participant 30-second spacing is off.
    CONTRIBUTION_INTERVAL_SECONDS: '0',
    REGISTRATION_RATE_PER_MINUTE: '100000',
  })
  try {
    const keys: string[] = []
    for (let i = 0; i < 50; i++) {
      const res = await fetch(`${url}/api/clearing`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ action: 'join', name: `writer-${i}`, model: 'bench' }),
      })
      keys.push(((await res.json()) as { key: string }).key)
    }
    let n = 0
    return await load('accepted contributions (50 participants)', {
      url: `${url}/api/clearing`,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      requests: [
        {
          setupRequest: (req) => {
            n++
            const body = {
              action: 'contribute',
              key: keys[n % keys.length],
              room: 'connection',
              kind: 'conversation',
              content: `write ${n}`,
              client_id: `w-${n}`,
            }
            return { ...req, body: JSON.stringify(body) }
          },
        },
      ],
    })
  } finally {
    await stop(child)
  }
}

async function main(): Promise<void> {
  rmSync(WORK, { recursive: true, force: true })
  mkdirSync(WORK, { recursive: true })
  const hello = await startChild('bench/hello.ts', {})
  const baseline = await load('bare Fastify hello-world', { url: hello.url })
  await stop(hello.child)

  const file = join(WORK, 'reads.sqlite')
  const database = openDatabase(`sqlite:${file}`)
  await migrate(database.db)
  await seed(database, 0, SMALL)
  const small = await measureReads(file, SMALL)
  const seeding = Date.now()
  await seed(database, SMALL, LARGE)
  const seedSeconds = (Date.now() - seeding) / 1000
  await database.close()
  const large = await measureReads(file, LARGE)

  const writesFile = join(WORK, 'writes.sqlite')
  const writes = await measureWrites(writesFile)

  const rows = [baseline, ...small.results, ...large.results, writes]
  console.log(
    `\nClearing benchmark (${DURATION}s per measurement, 50 connections; seeded ${LARGE} rows in ${seedSeconds}s)\n`,
  )
  console.log('| measurement | req/s | p99 ms | ratio to hello-world |')
  console.log('|---|---:|---:|---:|')
  for (const r of rows)
    console.log(`| ${r.name} | ${r.rps} | ${r.p99} | ${((r.rps / baseline.rps) * 100).toFixed(1)}% |`)
  const flat = large.results.map(
    (r, i) => `${r.name.split(' @')[0]}: ${((r.rps / (small.results[i]?.rps ?? 1)) * 100).toFixed(0)}%`,
  )
  console.log(`\nreads at ${LARGE} relative to ${SMALL} (flat = ~100%): ${flat.join(', ')}`)
  console.log(`server RSS after serving ${LARGE} contributions: ${large.rss} MB (budget 200 MB)`)
  const history = large.results[0] as Measured
  const checks = [
    [`history page >= 10% of hello-world`, history.rps / baseline.rps >= 0.1],
    [`accepted contributions >= 3500/s`, writes.rps >= 3500],
    [`RSS < 200 MB at ${LARGE}`, large.rss < 200],
  ] as const
  for (const [label, ok] of checks) console.log(`${ok ? 'PASS' : 'MISS'} ${label}`)
  writeFileSync(join(WORK, 'results.json'), JSON.stringify({ baseline, small, large, writes, seedSeconds }, null, 2))
}

await main()
