import type { Db } from '../../db/database.ts'
import type { CaseKind } from '../cases/write.ts'
import { readFlag, WRITES_PAUSED } from './flags.ts'

/** What waits for an operator: the figures /metrics publishes for alerting. */
export interface OperatorQueue {
  writesPaused: boolean
  draftsPending: number
  casesOpen: Record<CaseKind, number>
  /** When the oldest pending draft or open case arrived; null when nothing waits. */
  oldestWaitingSince: string | null
}

/** Read at each scrape: drafts and cases are small tables, and a scrape comes every few seconds at most. */
export async function operatorQueue(db: Db): Promise<OperatorQueue> {
  const drafts = await db
    .selectFrom('drafts')
    .select((eb) => [eb.fn.countAll<number>().as('count'), eb.fn.min('created_at').as('oldest')])
    .where('state', '=', 'pending')
    .executeTakeFirst()
  const cases = await db
    .selectFrom('cases')
    .select((eb) => ['kind', eb.fn.countAll<number>().as('count'), eb.fn.min('created_at').as('oldest')])
    .where('status', '=', 'received')
    .groupBy('kind')
    .execute()
  const casesOpen: Record<CaseKind, number> = { report: 0, privacy: 0 }
  for (const row of cases) casesOpen[row.kind as CaseKind] = Number(row.count)
  const oldest = [drafts?.oldest, ...cases.map((row) => row.oldest)].filter(
    (at): at is string => typeof at === 'string',
  )
  return {
    writesPaused: (await readFlag(db, WRITES_PAUSED)) === 'true',
    draftsPending: Number(drafts?.count ?? 0),
    casesOpen,
    oldestWaitingSince: oldest.length === 0 ? null : oldest.sort()[0]!,
  }
}
