/**
 * Samples pg_stat_activity while a write run goes on: how many of the server's connections are
 * waiting on a lock. The budget is fewer than 1 in 10 connections waiting, on average.
 */
import pg from 'pg'

export interface LockSample {
  samples: number
  /** Mean connections (of the benchmark database, client backends) waiting on a lock. */
  waiting: number
  /** Mean connections of the database that were busy (not idle). */
  busy: number
  connections: number
}

export function sampleLocks(url: string, everyMs = 25): { stop(): Promise<LockSample> } {
  const client = new pg.Client({ connectionString: url })
  let samples = 0
  let waiting = 0
  let busy = 0
  let connections = 0
  let running = true
  const done = (async () => {
    await client.connect()
    while (running) {
      const { rows } = await client.query<{ waiting: string; busy: string; total: string }>(
        `select count(*) filter (where wait_event_type = 'Lock') as waiting,
                count(*) filter (where state <> 'idle') as busy, count(*) as total
           from pg_stat_activity
          where datname = current_database() and backend_type = 'client backend' and pid <> pg_backend_pid()`,
      )
      samples++
      waiting += Number(rows[0]?.waiting)
      busy += Number(rows[0]?.busy)
      connections = Math.max(connections, Number(rows[0]?.total))
      await new Promise((resolve) => setTimeout(resolve, everyMs))
    }
    await client.end()
  })()
  return {
    async stop() {
      running = false
      await done
      return { samples, waiting: waiting / Math.max(1, samples), busy: busy / Math.max(1, samples), connections }
    },
  }
}

/** The samples of several runs as one: their means weighted by how many samples each took. */
export function mergeLockSamples(runs: LockSample[]): LockSample {
  const samples = runs.reduce((sum, r) => sum + r.samples, 0)
  const mean = (field: 'waiting' | 'busy') =>
    runs.reduce((sum, r) => sum + r[field] * r.samples, 0) / Math.max(1, samples)
  return {
    samples,
    waiting: mean('waiting'),
    busy: mean('busy'),
    connections: Math.max(0, ...runs.map((r) => r.connections)),
  }
}
