/** Load runs (autocannon, 50 connections) and single-request latency. */
import autocannon from 'autocannon'

export const DURATION = Number(process.env.BENCH_SECONDS ?? 5)

export interface Measured {
  name: string
  rps: number
  p50: number
  p99: number
}

/**
 * A run of `opts` for DURATION seconds. `urls` rotates the request target per request (cursors and
 * ids that keep the read cache missing); every answer must be 2xx.
 */
export async function load(
  name: string,
  opts: autocannon.Options & { urls?: string[] },
  connections = 50,
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
  return progress({ name, rps: Math.round(result.requests.average), p50: result.latency.p50, p99: result.latency.p99 })
}

/** Requests answered before a latency run is timed: the first loads and compiles the action's code. */
const WARM_UP = 3

/** One request at a time (no queueing in the figure): median and p99 milliseconds over HTTP. */
export async function latency(name: string, urls: string[], count = 200): Promise<Measured> {
  for (let i = 0; i < WARM_UP; i++) await (await fetch(urls[i % urls.length] as string)).arrayBuffer()
  const times: number[] = []
  const started = performance.now()
  for (let i = 0; i < count; i++) {
    const t = performance.now()
    const res = await fetch(urls[i % urls.length] as string)
    await res.arrayBuffer()
    if (!res.ok) throw new Error(`${name}: ${res.status}`)
    times.push(performance.now() - t)
  }
  times.sort((a, b) => a - b)
  const at = (q: number) => Number((times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? NaN).toFixed(1))
  return progress({
    name,
    rps: Math.round((count / (performance.now() - started)) * 1000),
    p50: at(0.5),
    p99: at(0.99),
  })
}

/** Each figure as it is measured, on stderr: the tables come at the end. */
export function progress(m: Measured): Measured {
  console.error(`  ${m.name}: ${m.rps} req/s, p50 ${m.p50} ms, p99 ${m.p99} ms`)
  return m
}
