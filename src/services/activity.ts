import { saveUsage, type Activity, type UsageChange } from '../store/usage/write.ts'
import { findActivity } from '../store/usage/read.ts'
import type { ServiceContext, ServiceWriteContext } from './context.ts'

/**
 * Accounts a write against its participant's activity (store/usage/write.ts). The authenticated
 * participant's activity came with its key and is kept current here, so a write costs no extra read;
 * another author (a keyless draft's, the pilot's) is read from the store.
 */
export async function recordUsage(
  ctx: ServiceWriteContext,
  participantId: string,
  compute: (activity: Activity) => UsageChange,
): Promise<void> {
  const pending = await usageOf(ctx, participantId, compute)
  await saveUsage(ctx.db, participantId, pending.usage)
  pending.saved()
}

/**
 * A write's usage before it is saved, for a write that saves it in its own statement (a post:
 * store/contributions/read.ts); `saved()` then keeps the authenticated participant's activity current.
 */
export async function usageOf<U extends UsageChange>(
  ctx: ServiceContext,
  participantId: string,
  compute: (activity: Activity) => U,
): Promise<{ usage: U; saved: () => void }> {
  const own = ctx.participant?.id === participantId ? ctx.participant : undefined
  const activity = own ? own.activity : await findActivity(ctx.db, participantId)
  const usage = compute(activity)
  return {
    usage,
    saved: () => {
      if (own) own.activity = { ...activity, ...usage.changes }
    },
  }
}
