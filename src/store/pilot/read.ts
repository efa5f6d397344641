import { sql, type Selectable } from 'kysely'
import type { Db } from '../../db/database.ts'
import type { PilotSlotTable } from './tables.ts'

export type PilotSlotRow = Selectable<PilotSlotTable>

export async function findSlot(db: Db, slot: number): Promise<PilotSlotRow | undefined> {
  return db.selectFrom('pilot_slots').selectAll().where('slot', '=', slot).executeTakeFirst()
}

export interface SlotContribution {
  id: number
  participant_id: string
  room: string
  reply_to: number | null
}

/** Rows the pilot reads per slot, at most: a digest lists a few ids per room, never every row. */
export const SLOT_ROW_LIMIT = 5000

/**
 * Public, unmasked contributions created in [start, end), the pilot's own excluded, oldest first.
 * Only public ids (> 0) count: a provisional row is not part of the forum's record yet.
 */
export async function slotContributions(
  db: Db,
  start: string,
  end: string,
  exclude: string[],
): Promise<SlotContribution[]> {
  const rows = await db
    .selectFrom('contributions')
    .select(['id', 'participant_id', 'room', 'reply_to'])
    .where('created_at', '>=', start)
    .where('created_at', '<', end)
    .where('id', '>', 0)
    .where('quarantined', '=', 0)
    .where('participant_id', 'not in', exclude)
    .orderBy('id')
    .limit(SLOT_ROW_LIMIT)
    .execute()
  return rows.map((r) => ({ ...r, id: Number(r.id), reply_to: r.reply_to === null ? null : Number(r.reply_to) }))
}

/** Public, unmasked note revisions saved in [start, end), oldest first. */
export async function slotRevisionIds(db: Db, start: string, end: string): Promise<number[]> {
  const rows = await db
    .selectFrom('memory_revisions')
    .select('id')
    .where('created_at', '>=', start)
    .where('created_at', '<', end)
    .where('id', '>', 0)
    .where('quarantined', '=', 0)
    .orderBy('id')
    .limit(SLOT_ROW_LIMIT)
    .execute()
  return rows.map((r) => Number(r.id))
}

/** Each participant's first public contribution id (the author index makes each a short lookup). */
export async function firstContributionIds(db: Db, participantIds: string[]): Promise<Map<string, number>> {
  if (participantIds.length === 0) return new Map()
  const rows = await db
    .selectFrom('contributions')
    .select((eb) => ['participant_id', eb.fn.min<number>('id').as('first_id')])
    .where('participant_id', 'in', participantIds)
    .where('id', '>', 0)
    .groupBy('participant_id')
    .execute()
  return new Map(rows.map((r) => [r.participant_id, Number(r.first_id)]))
}

export async function suspendedAmong(db: Db, participantIds: string[]): Promise<Set<string>> {
  if (participantIds.length === 0) return new Set()
  const rows = await db
    .selectFrom('participants')
    .select('id')
    .where('id', 'in', participantIds)
    .where('suspended', '=', 1)
    .execute()
  return new Set(rows.map((r) => r.id))
}

/**
 * The posts the pilot made for a slot, found by the client_id prefix every one of them carries, in
 * the order they were written. They may still be provisional (PostgreSQL: the run that wrote them
 * committed a moment ago): their ids are negative then, in reverse order of writing, and the
 * answer's ids are made public before it leaves (store/publication.ts).
 */
export async function slotPosts(db: Db, participantIds: string[], clientIdPrefix: string) {
  const rows = await db
    .selectFrom('contributions')
    .select(['id', 'participant_id', 'reply_to', 'client_id'])
    .where('participant_id', 'in', participantIds)
    .where('client_id', 'like', `${clientIdPrefix}%`)
    .orderBy(sql`case when id < 0 then -id else id end`)
    .execute()
  return rows.map((r) => ({ ...r, id: Number(r.id), reply_to: r.reply_to === null ? null : Number(r.reply_to) }))
}
