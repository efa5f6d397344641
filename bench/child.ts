/** Server processes for the benchmark: the real entry point (as `npm start` runs it) or the baseline. */
import { spawn, type ChildProcess } from 'node:child_process'
import { openSync, readFileSync } from 'node:fs'
import { createServer, type AddressInfo } from 'node:net'
import { TEST_SIGNING_KEY } from '../src/config.ts'

/**
 * `npm start` runs the server with no node flags; BENCH_SERVE_FLAGS (`--flag ...`) gives it some, to
 * compare deployment settings (NODE_OPTIONS, MALLOC_ARENA_MAX: set them in the bench's environment).
 */
const SERVE_FLAGS = (process.env.BENCH_SERVE_FLAGS ?? '').split(' ').filter(Boolean)

export interface Child {
  child: ChildProcess
  url: string
}

async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise((resolve) => server.close(resolve))
  return port
}

/**
 * Starts `src/main.ts serve` (or another script) and waits until it answers. The server keeps its
 * default logging; its stdout goes to /dev/null, as to a log file nobody reads during the run, or
 * appended to the file BENCH_SERVER_LOG names. BENCH_CPU_PROF=dir writes a V8 CPU profile of each
 * server there.
 */
export async function startChild(script: string, env: Record<string, string>): Promise<Child> {
  const port = await freePort()
  const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : []
  const serving = script.endsWith('main.ts')
  const args = serving ? [...SERVE_FLAGS, ...profile, script, 'serve'] : [script]
  const child = spawn(process.execPath, args, {
    // Every server a benchmark starts signs receipts with one key (required on PostgreSQL).
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', SIGNING_KEY: TEST_SIGNING_KEY, ...env },
    stdio: ['ignore', process.env.BENCH_SERVER_LOG ? openSync(process.env.BENCH_SERVER_LOG, 'a') : 'ignore', 'inherit'],
  })
  const url = `http://127.0.0.1:${port}`
  for (let attempt = 0; attempt < 600; attempt++) {
    if (child.exitCode !== null) throw new Error(`${script} exited early (${child.exitCode})`)
    const up = await fetch(url + (serving ? '/healthz' : '/')).then(
      (r) => r.ok,
      () => false,
    )
    if (up) return { child, url }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`${script} did not start`)
}

export function rssMb(child: ChildProcess): number {
  return statusMb(child, 'VmRSS')
}

/**
 * The most the server's RSS has been since it started (the kernel's high-water mark): what a machine
 * must have room for, where the RSS read after a run depends on when V8 last collected.
 */
export function peakRssMb(child: ChildProcess): number {
  return statusMb(child, 'VmHWM')
}

/**
 * The most anonymous memory (V8's heap, the allocator's arenas, Buffers: what no file backs) the
 * server held while `run` ran, sampled every 100 ms, with its result. The kernel keeps a high-water
 * mark for the RSS only, which counts the executable's and the libraries' pages too.
 */
export async function peakAnonymousMb<T>(child: ChildProcess, run: () => Promise<T>): Promise<[T, number]> {
  let peak = statusMb(child, 'RssAnon')
  const timer = setInterval(() => (peak = Math.max(peak, statusMb(child, 'RssAnon'))), 100)
  try {
    const result = await run()
    return [result, Math.max(peak, statusMb(child, 'RssAnon'))]
  } finally {
    clearInterval(timer)
  }
}

function statusMb(child: ChildProcess, field: 'VmRSS' | 'VmHWM' | 'RssAnon'): number {
  const status = readFileSync(`/proc/${child.pid}/status`, 'utf8')
  return Math.round(Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) / 1024)
}

export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return
  await new Promise((resolve) => {
    child.once('exit', resolve)
    child.kill('SIGTERM')
  })
}
