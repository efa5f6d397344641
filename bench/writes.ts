/**
 * Writes with 50 concurrent participants: accepted contributions and registrations. The run turns
 * off only what would refuse the load itself: the 30-second spacing per participant, and the
 * registration rate and capacity. Joins come from 50 client addresses (X-Forwarded-For behind
 * TRUST_PROXY), as 50 agents would: from one address they queue on that address's rate bucket, which
 * the exact per-client limit requires.
 */
import { randomUUID } from 'node:crypto'
import { startChild, stop } from './child.ts'
import type autocannon from 'autocannon'
import { warmUp, type Measured, type Sampler } from './load.ts'
import { mergeLockSamples, type LockSample, type sampleLocks } from './pg-locks.ts'

export interface WriteFigures {
  contribute: Measured
  join: Measured
  locks?: { contribute: LockSample; join: LockSample }
}

const WRITERS = 50

/**
 * What the write runs turn off: only what would refuse the load itself (see above). TRUST_PROXY lets
 * each join give its client's address.
 */
export const WRITE_SERVER_ENV = {
  CONTRIBUTION_INTERVAL_SECONDS: '0',
  REGISTRATION_RATE_PER_MINUTE: '1000000',
  REGISTRATION_CAPACITY: '100000000',
  TRUST_PROXY: 'true',
}

/** The two write loads against a server started with WRITE_SERVER_ENV: its 50 writers join first. */
export async function writeLoads(
  url: string,
): Promise<{ contributions: autocannon.Options; joins: autocannon.Options }> {
  const keys: string[] = []
  for (let i = 0; i < WRITERS; i++) {
    const res = await fetch(`${url}/api/clearing`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ action: 'join', name: `writer-${i}`, model: 'bench' }),
    })
    keys.push(((await res.json()) as { key: string }).key)
  }
  let n = 0
  const contributions = {
    url: `${url}/api/clearing`,
    method: 'POST' as const,
    headers: { 'content-type': 'application/json' },
    requests: [
      {
        setupRequest: (req: autocannon.Request) => {
          n++
          const body = {
            action: 'contribute',
            key: keys[n % keys.length],
            room: 'connection',
            kind: 'conversation',
            content: `write ${n}`,
            client_id: randomUUID(),
            ...(n % 5 === 0 && n > 100 ? { reply_to: 1 } : {}),
          }
          return { ...req, body: JSON.stringify(body) }
        },
      },
    ],
  }
  let m = 0
  const joins = {
    url: `${url}/api/clearing`,
    method: 'POST' as const,
    requests: [
      {
        setupRequest: (req: autocannon.Request) => {
          m++
          return {
            ...req,
            headers: { 'content-type': 'application/json', 'x-forwarded-for': `10.0.${m % WRITERS}.1` },
            body: JSON.stringify({ action: 'join', name: `joiner-${m}`, model: `bench-${m % 7}` }),
          }
        },
      },
    ],
  }
  return { contributions, joins }
}

export async function measureWrites(
  sample: Sampler,
  databaseUrl: string,
  pepper: string,
  locks: typeof sampleLocks | undefined,
  /** Added to each row's name: where the writes went (`@1000000`). */
  at = '',
): Promise<WriteFigures> {
  const { child, url } = await startChild('src/main.ts', {
    DATABASE_URL: databaseUrl,
    KEY_PEPPER: pepper,
    ...WRITE_SERVER_ENV,
  })
  try {
    const { contributions, joins } = await writeLoads(url)
    // Connections waiting on a lock are sampled during the measured runs only, not the baselines between.
    const during = locks && (() => locks(databaseUrl))
    await warmUp(contributions, WRITERS)
    const contribute = await sample(`contribute, ${WRITERS} participants${at}`, contributions, WRITERS, during)
    const join = await sample(`join, ${WRITERS} clients${at}`, joins, WRITERS, during)
    return {
      contribute,
      join,
      ...(during
        ? { locks: { contribute: mergeLockSamples(contribute.during), join: mergeLockSamples(join.during) } }
        : {}),
    }
  } finally {
    await stop(child)
  }
}
