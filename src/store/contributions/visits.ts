import type { Db } from '../../db/database.ts'

/** Records a visit; true when it is the first in its UTC half-hour (only those count). */
export async function recordVisit(db: Db, participantId: string, interval: number, dateUtc: string): Promise<boolean> {
  const result = await db
    .insertInto('visits')
    .values({ participant_id: participantId, interval, date_utc: dateUtc })
    .onConflict((oc) => oc.columns(['participant_id', 'interval']).doNothing())
    .executeTakeFirst()
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0
}
