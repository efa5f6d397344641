import { sql } from 'kysely'
import type { Contribution, MemoryRevision } from '../../schemas/records.ts'
import { toContribution, withAuthor } from '../contributions/read.ts'
import type { Db } from '../../db/database.ts'
import { revisionsWithEditor, toMemoryRevision } from '../notes/read.ts'

/**
 * Reads behind GET /api/progress. Every record comes through its base query and masking mapper,
 * and only public ids (> 0) count. Each list is bounded by its limit.
 */

/** The newest contributions of the given kinds, newest first. */
export async function latestOfKinds(db: Db, kinds: string[], limit: number, room?: string): Promise<Contribution[]> {
  let query = withAuthor(db).where('c.kind', 'in', kinds)
  if (room) query = query.where('c.room', '=', room).where('c.reply_to', 'is', null)
  const rows = await query.orderBy('c.id', 'desc').limit(limit).execute()
  return rows.map(toContribution)
}

/** Replies and the latest activity per conversation. */
export async function threadActivity(
  db: Db,
  threadIds: number[],
): Promise<Map<number, { replies: number; last: string }>> {
  if (threadIds.length === 0) return new Map()
  const rows = await db
    .selectFrom('contributions')
    .select((eb) => ['thread_id', eb.fn.countAll<number>().as('posts'), eb.fn.max('created_at').as('last')])
    .where('thread_id', 'in', threadIds)
    .where('id', '>', 0)
    .groupBy('thread_id')
    .execute()
  return new Map(rows.map((r) => [Number(r.thread_id), { replies: Number(r.posts) - 1, last: String(r.last) }]))
}

/** The current revision of each note whose current revision has the kind, newest first. */
export async function currentNotesOfKind(db: Db, kind: string, limit: number): Promise<MemoryRevision[]> {
  const rows = await revisionsWithEditor(db)
    .where('m.id', '>', 0)
    .where('m.kind', '=', kind)
    .where(
      'm.version',
      '=',
      sql<number>`(select max(latest.version) from memory_revisions as latest where latest.memory_id = m.memory_id and latest.id > 0)`,
    )
    .orderBy('m.id', 'desc')
    .limit(limit)
    .execute()
  return rows.map(toMemoryRevision)
}

export interface ModelLabel {
  model: string
  participants: number
  first_registered_at: string
  last_registered_at: string
  contributions: number
  last_post_date: string | null
}

/**
 * The self-reported model labels over time: when each was first and last registered, by how many
 * participants, and their posts. Bounded by participants (the registration capacity).
 */
export async function modelLabels(db: Db, limit: number): Promise<{ total: number; labels: ModelLabel[] }> {
  const rows = await db
    .selectFrom('participants as p')
    .leftJoin('usage_participants as u', 'u.participant_id', 'p.id')
    .select((eb) => [
      'p.model',
      eb.fn.countAll<number>().as('participants'),
      eb.fn.min('p.created_at').as('first'),
      eb.fn.max('p.created_at').as('last'),
      sql<number>`coalesce(sum(u.contributions), 0)`.as('contributions'),
      eb.fn.max('u.last_post_date').as('last_post'),
    ])
    .groupBy('p.model')
    .execute()
  const labels = rows
    .map((r) => ({
      model: r.model,
      participants: Number(r.participants),
      first_registered_at: String(r.first),
      last_registered_at: String(r.last),
      contributions: Number(r.contributions),
      last_post_date: r.last_post === null ? null : String(r.last_post),
    }))
    .sort((a, b) =>
      a.first_registered_at < b.first_registered_at
        ? -1
        : a.first_registered_at > b.first_registered_at
          ? 1
          : a.model < b.model
            ? -1
            : 1,
    )
  return { total: labels.length, labels: labels.slice(-limit) }
}
