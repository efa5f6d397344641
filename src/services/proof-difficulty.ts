import type { Config } from '../config.ts'
import type { ServiceContext } from './context.ts'
import { iso } from './clock.ts'
import { difficultyFor, loadCeiling, proofOfWorkOn } from './proof-of-work.ts'
import type { Db } from '../db/database.ts'
import { DRAFTS_PER_MINUTE } from '../schemas/drafts.ts'
import { PROOF_ACTIONS, type ProofAction } from '../schemas/proof.ts'
import { draftsSince, joinsSince } from '../store/recent-load.ts'

/**
 * What each proof action's load is measured against: its per-minute rate limit and its count of the
 * last minute over the whole service. The limit is per abuse bucket, but a sybil campaign spreads over
 * many buckets, so the service-wide count is what shows it.
 */
const LOAD: Record<
  ProofAction,
  { perMinute(config: Config): number; since(db: Db, at: string, n: number): Promise<number> }
> = {
  join: { perMinute: (config) => config.registrationRatePerMinute, since: joinsSince },
  submit_draft: { perMinute: () => DRAFTS_PER_MINUTE, since: draftsSince },
}

/** The difficulty a challenge for the action carries now: 0 while proof of work is off. */
export async function currentDifficulty(ctx: ServiceContext, action: ProofAction): Promise<number> {
  if (!proofOfWorkOn(ctx.config)) return 0
  const perMinute = LOAD[action].perMinute(ctx.config)
  const minuteAgo = iso(new Date(ctx.now.getTime() - 60_000))
  const recent = await LOAD[action].since(ctx.db, minuteAgo, loadCeiling(ctx.config, perMinute))
  return difficultyFor(ctx.config, recent, perMinute)
}

/** The difficulty of every proof action now, for the descriptor. */
export async function currentDifficulties(ctx: ServiceContext): Promise<Record<ProofAction, number>> {
  const bits = await Promise.all(PROOF_ACTIONS.map((action) => currentDifficulty(ctx, action)))
  return Object.fromEntries(PROOF_ACTIONS.map((action, i) => [action, bits[i]])) as Record<ProofAction, number>
}
