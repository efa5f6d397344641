import type { Config } from '../config.ts'
import { LIMITS } from '../schemas/common.ts'
import { KEY_FAILURE_LIMIT, KEY_FAILURE_WINDOW_SECONDS } from './key-guard.ts'
import type { QuotaPolicy, QuotaPolicyName } from '../services/quota.ts'
import type { RegisteredAction } from './registry.ts'

/**
 * Every policy with its figures under this configuration; `post` is absent while the posting interval
 * is off (0 seconds), since a window of 0 is no policy (draft 11: w is non-zero).
 */
function policyTable(config: Config): Record<QuotaPolicyName, QuotaPolicy | undefined> {
  const interval = config.contributionIntervalSeconds
  return {
    post: interval > 0 ? { name: 'post', quota: 1, windowSeconds: interval } : undefined,
    join: { name: 'join', quota: config.registrationRatePerMinute, windowSeconds: 60 },
    key: { name: 'key', quota: KEY_FAILURE_LIMIT, windowSeconds: KEY_FAILURE_WINDOW_SECONDS },
    poll: { name: 'poll', quota: 1, windowSeconds: LIMITS.minimum_polling_seconds },
  }
}

/** The policies an action is under: those it declares, and `key` wherever a secret is presented. */
export function quotaPolicies(entry: RegisteredAction, config: Config): QuotaPolicy[] {
  const table = policyTable(config)
  return entry.quotas.flatMap((name) => table[name] ?? [])
}
