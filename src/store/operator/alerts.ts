import type { Selectable } from 'kysely'
import type { Db, WriteTx } from '../../db/database.ts'
import type { AlertOutboxTable } from './tables.ts'

export type AlertRow = Selectable<AlertOutboxTable>

/** Queues a reference-only alert; a repeated dedupe_key (one draft alert per UTC day) is a no-op. */
export async function enqueueAlert(
  db: WriteTx,
  row: { id: number; kind: string; reference: string; dedupe_key: string; created_at: string },
): Promise<boolean> {
  const inserted = await db
    .insertInto('alert_outbox')
    .values({ ...row, claimed_at: null, sent_at: null, attempts: 0 })
    .onConflict((oc) => oc.column('dedupe_key').doNothing())
    .returning('id')
    .executeTakeFirst()
  return inserted !== undefined
}

/**
 * Claims unsent alerts for this instance: a conditional update per row, so two instances never
 * send the same alert. A claim older than staleBefore (a crashed sender) may be taken over.
 */
export async function claimUnsent(db: Db, now: string, staleBefore: string, limit: number): Promise<AlertRow[]> {
  const candidates = await db
    .selectFrom('alert_outbox')
    .selectAll()
    .where('sent_at', 'is', null)
    .where((eb) => eb.or([eb('claimed_at', 'is', null), eb('claimed_at', '<', staleBefore)]))
    .orderBy('id', 'asc')
    .limit(limit)
    .execute()
  const claimed: AlertRow[] = []
  for (const row of candidates) {
    const result = await db
      .updateTable('alert_outbox')
      .set((eb) => ({ claimed_at: now, attempts: eb('attempts', '+', 1) }))
      .where('id', '=', row.id)
      .where('sent_at', 'is', null)
      .where((eb) => (row.claimed_at === null ? eb('claimed_at', 'is', null) : eb('claimed_at', '=', row.claimed_at)))
      .executeTakeFirst()
    if (Number(result.numUpdatedRows) === 1) claimed.push(row)
  }
  return claimed
}

export async function markSent(db: Db, id: number, at: string): Promise<void> {
  await db.updateTable('alert_outbox').set({ sent_at: at }).where('id', '=', id).execute()
}

/** A failed send goes back to the queue for the next delivery or maintenance run. */
export async function releaseClaim(db: Db, id: number): Promise<void> {
  await db.updateTable('alert_outbox').set({ claimed_at: null }).where('id', '=', id).execute()
}

/**
 * Maintenance: metadata of notifications sent before the cutoff is deleted. An alert never delivered
 * is kept however old it is: deleting it would silently lose the operators' only notice. Idempotent.
 */
export async function deleteOldAlerts(db: WriteTx, sentBefore: string): Promise<number> {
  const result = await db
    .deleteFrom('alert_outbox')
    .where('sent_at', 'is not', null)
    .where('sent_at', '<', sentBefore)
    .executeTakeFirst()
  return Number(result.numDeletedRows)
}
