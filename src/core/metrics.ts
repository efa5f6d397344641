import { performance } from 'node:perf_hooks'
import { toServiceError } from '../services/errors.ts'

/** Where an action call came from. */
export type Transport = 'rest' | 'mcp'

/**
 * What the transports report about each action call; the Prometheus side lives in http/metrics.ts.
 * Absent (METRICS_TOKEN unset), nothing is measured at all.
 */
export interface ActionObserver {
  /** `outcome` is `ok` or the error code the call answered with. */
  action(name: string, transport: Transport, outcome: string, seconds: number): void
}

/** Runs one action call, reporting its outcome and duration to the observer when there is one. */
export async function observed<T>(
  observer: ActionObserver | undefined,
  name: string,
  transport: Transport,
  run: () => Promise<T>,
): Promise<T> {
  if (!observer) return run()
  const started = performance.now()
  try {
    const result = await run()
    observer.action(name, transport, 'ok', (performance.now() - started) / 1000)
    return result
  } catch (err) {
    observer.action(name, transport, toServiceError(err).code, (performance.now() - started) / 1000)
    throw err
  }
}
