/** Server processes for the benchmark: the real entry point (`npm start`'s flags) or the baseline. */
import { spawn, type ChildProcess } from 'node:child_process'
import { openSync, readFileSync } from 'node:fs'
import { createServer, type AddressInfo } from 'node:net'
import { parseAssignments, parseFlags, START_ENV, START_FLAGS } from '../scripts/start-flags.ts'
import { QUIET_SECONDS } from '../src/memory-upkeep.ts'

/**
 * The node flags of `npm start`, so the bench measures the server as it is run; BENCH_SERVE_FLAGS
 * replaces them for a comparison of flags in one sitting.
 */
const SERVE_FLAGS =
  process.env.BENCH_SERVE_FLAGS !== undefined ? parseFlags(process.env.BENCH_SERVE_FLAGS) : START_FLAGS
/** The variables `npm start` sets (BENCH_SERVE_ENV, `NAME=value ...`, replaces them likewise). */
const SERVE_ENV = process.env.BENCH_SERVE_ENV !== undefined ? parseAssignments(process.env.BENCH_SERVE_ENV) : START_ENV

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
    env: { ...process.env, ...(serving ? SERVE_ENV : {}), PORT: String(port), HOST: '127.0.0.1', ...env },
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

/** Seconds of quiet before quietRssMb reads: the server's (src/memory-upkeep.ts) and two more. */
export const QUIET_READ_SECONDS = QUIET_SECONDS + 2

/** The server's RSS once it has been quiet long enough to hand back what it grew under the load just run. */
export async function quietRssMb(child: ChildProcess): Promise<number> {
  await new Promise((resolve) => setTimeout(resolve, QUIET_READ_SECONDS * 1000))
  return rssMb(child)
}

function statusMb(child: ChildProcess, field: 'VmRSS' | 'VmHWM'): number {
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
