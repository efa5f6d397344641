/** Load runs (autocannon, 50 connections) and single-request latency. */
import autocannon from 'autocannon'
import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'

const run = promisify(execFile)
const LATENCY_CLIENT = fileURLToPath(new URL('./latency.ts', import.meta.url))

export const DURATION = Number(process.env.BENCH_SECONDS ?? 5)

export interface Measured {
  name: string
  rps: number
  p50: number
  p99: number
  /** The answers counted in the run (load), where rps is their average per second, rounded. */
  requests?: number
  /**
   * A sampled figure (see sampler): the median of each sample's req/s over the bare Fastify run just
   * before it, and each sample's req/s. rps, p50 and p99 are then medians of the samples.
   */
  ratio?: number
  samples?: number[]
}

/**
 * A run of `opts` for DURATION seconds. `urls` rotates the request target per request (cursors and
 * ids that keep the read cache missing); every answer must be 2xx.
 */
export async function load(
  name: string,
  opts: autocannon.Options & { urls?: string[] },
  connections = 50,
  report: (m: Measured) => Measured = progress,
): Promise<Measured> {
  const { urls, ...rest } = opts
  let n = 0
  const requests = urls
    ? [{ setupRequest: (req: autocannon.Request) => ({ ...req, path: urls[n++ % urls.length] as string }) }]
    : rest.requests
  const result = await autocannon({ connections, duration: DURATION, ...rest, ...(requests ? { requests } : {}) })
  if (result.non2xx > 0 || result.errors > 0) {
    const statuses = Object.entries(result.statusCodeStats ?? {})
      .map(([status, { count }]) => `${count ?? 0} × ${status}`)
      .join(', ')
    throw new Error(`${name}: ${result.non2xx} non-2xx and ${result.errors} errors (answers: ${statuses})`)
  }
  return report({
    name,
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: result.requests.total,
  })
}

/**
 * Seconds of load a server gets, unmeasured, before its first figure. A server just started measured
 * a fifth slower in its first seconds than after them (each first sample the lowest of its three in
 * every whole run): V8's young generation starts at 1 MB and grows under load, and the code and the
 * database's pages are not hot yet. A server in service has been running.
 */
export const WARM_UP_SECONDS = 3

/** A run of `opts` that is not measured: see WARM_UP_SECONDS. */
export async function warmUp(opts: autocannon.Options & { urls?: string[] }, connections = 50): Promise<void> {
  await load('warm-up', { ...opts, duration: WARM_UP_SECONDS }, connections, (m) => m)
}

/** How many samples each load figure of the whole bench takes (BENCH_SAMPLES); the median is reported. */
export const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 3)
/** The Accept-Encoding of fetch (undici), Python's requests with brotli, curl --compressed and browsers. */
export const ACCEPTS = { 'accept-encoding': 'gzip, deflate, br' }

/** Seconds of bare Fastify measured right before each sample. */
const BASELINE_SECONDS = 2

/** Work to run during each sample only (a lock sampler): started before it, stopped after it. */
export type During<T> = () => { stop(): Promise<T> }

export type Sampler = <T = never>(
  name: string,
  opts: autocannon.Options & { urls?: string[] },
  connections?: number,
  during?: During<T>,
) => Promise<Measured & { during: T[] }>

/** One run per figure, without a baseline: for focused runs (bench/focus.ts). */
export const single: Sampler = async (name, opts, connections = 50, during) => {
  const work = during?.()
  const m = await load(name, opts, connections)
  return { ...m, during: work ? [await work.stop()] : [] }
}

/**
 * Load figures that hold up on a machine whose speed changes from one minute to the next (bare
 * Fastify measured 38,805 and 61,069 req/s a minute apart): each figure is SAMPLES runs, each right
 * after a short run of bare Fastify on `baselineUrl`, and the median is reported, with the median
 * ratio of each run to the baseline measured next to it.
 */
export function sampler(baselineUrl: string): Sampler {
  return async (name, opts, connections = 50, during) => {
    const runs: Array<{ m: Measured; bare: number }> = []
    const results = []
    for (let i = 0; i < SAMPLES; i++) {
      const quiet = (x: Measured) => x
      const bare = await load('bare Fastify', { url: baselineUrl, duration: BASELINE_SECONDS }, 50, quiet)
      const work = during?.()
      const m = await load(name, opts, connections, quiet)
      if (work) results.push(await work.stop())
      runs.push({ m, bare: bare.rps })
    }
    const median = (values: number[]) => {
      const sorted = [...values].sort((a, b) => a - b)
      return sorted[Math.floor((sorted.length - 1) / 2)] as number
    }
    const rps = runs.map((r) => r.m.rps)
    return {
      ...progress({
        name,
        rps: median(rps),
        p50: median(runs.map((r) => r.m.p50)),
        p99: median(runs.map((r) => r.m.p99)),
        ratio: median(runs.map((r) => r.m.rps / r.bare)),
        samples: rps,
      }),
      during: results,
    }
  }
}

/**
 * One request at a time (no queueing in the figure), from a process of its own (bench/latency.ts):
 * median and p99 milliseconds over HTTP. `count` is large enough that the p99 is not the slowest
 * answer alone (of 100, the 99th percentile is the last).
 */
export async function latency(name: string, urls: string[], count = 1000): Promise<Measured> {
  const { stdout } = await run(process.execPath, [LATENCY_CLIENT, JSON.stringify({ urls, count })], {
    maxBuffer: 64 * 1024 * 1024,
  })
  const { times, elapsed } = JSON.parse(stdout) as { times: number[]; elapsed: number }
  const at = (q: number) => Number((times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? NaN).toFixed(1))
  return progress({ name, rps: Math.round((count / elapsed) * 1000), p50: at(0.5), p99: at(0.99) })
}

/** Each figure as it is measured, on stderr: the tables come at the end. */
export function progress(m: Measured): Measured {
  const sampled = m.samples ? ` (samples ${m.samples.join(', ')}; ${((m.ratio ?? 0) * 100).toFixed(1)}% of bare)` : ''
  console.error(`  ${m.name}: ${m.rps} req/s, p50 ${m.p50} ms, p99 ${m.p99} ms${sampled}`)
  return m
}
