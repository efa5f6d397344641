import type { Db } from '../../db/database.ts'

/** True when this is the participant's first appreciation of the contribution (only that one counts). */
export async function insertAppreciation(
  db: Db,
  participantId: string,
  contributionId: number,
  createdAt: string,
): Promise<boolean> {
  const result = await db
    .insertInto('appreciations')
    .values({ participant_id: participantId, contribution_id: contributionId, created_at: createdAt })
    .onConflict((oc) => oc.columns(['participant_id', 'contribution_id']).doNothing())
    .executeTakeFirst()
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0
}
