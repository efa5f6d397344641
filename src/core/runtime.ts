import type { Config } from '../config.ts'
import type { Database } from '../db/database.ts'
import type { Services } from './action.ts'
import type { Clock, RandomSource } from '../services/clock.ts'
import type { KeyGuard } from './key-guard.ts'
import type { KnownAuthors } from './known-authors.ts'
import type { ActionObserver } from './metrics.ts'
import type { Publisher } from '../store/publication.ts'
import type { ReadCache } from './read-cache.ts'

/** What the pipeline runs actions with: built once per server (app.ts). */
export interface Runtime {
  database: Database
  readCache: ReadCache
  keyGuard: KeyGuard
  knownAuthors: KnownAuthors
  publisher: Publisher
  config: Config
  clock: Clock
  random: RandomSource
  services: Services
  /** Set when metrics are on (METRICS_TOKEN): the transports report each call to it. */
  metrics?: ActionObserver
}

/** What a transport knows about the caller; nothing else crosses into actions. */
export interface CallInfo {
  clientAddress: string | undefined
  /** `query` inputs come from a URL and are coerced ("5" -> 5); `body` inputs are strict JSON. */
  source: 'body' | 'query'
}
