import type { WriteTx } from '../../db/database.ts'
import type { StoredHead } from './read.ts'

/** Moves a chain's head from `from` (none: the chain was empty) to `to`; false when another got there first. */
export async function advanceHead(
  db: WriteTx,
  chain: string,
  from: StoredHead | undefined,
  to: StoredHead,
): Promise<boolean> {
  if (from === undefined) {
    const result = await db
      .insertInto('chain_heads')
      .values({ chain, ...to })
      .onConflict((oc) => oc.column('chain').doNothing())
      .executeTakeFirst()
    return Number(result.numInsertedOrUpdatedRows ?? 0) === 1
  }
  const result = await db
    .updateTable('chain_heads')
    .set(to)
    .where('chain', '=', chain)
    .where('last_id', '=', from.last_id)
    .executeTakeFirst()
  return Number(result.numUpdatedRows) === 1
}
