import type { MemoryRevision } from '../../schemas/records.ts'
import type { Db } from '../../db/database.ts'
import { AUTHOR_COLUMNS, attributionOf } from '../attribution.ts'
import { envelope } from '../../signals/stored.ts'
import { moderationOf } from '../moderation/link.ts'
import { keysetPage, type Page, type PageRequest } from '../pager.ts'
import { isPublic } from '../public-ids.ts'

export const REVISION_COLUMNS = [
  'm.id',
  'm.memory_id',
  'm.version',
  'm.title',
  'm.kind',
  'm.content',
  'm.source_ids',
  'm.reason',
  'm.created_at',
  'm.quarantined',
  'm.moderation_id',
  'm.signals',
  'm.participant_id',
  ...AUTHOR_COLUMNS,
] as const

/** Every public read of note revisions starts here, so attribution and masking cannot be forgotten. */
export function revisionsWithEditor(db: Db) {
  return (
    db
      .selectFrom('memory_revisions as m')
      // CROSS JOIN: revisions first, each editor looked up (see withAuthor in store/contributions/read.ts).
      .crossJoin('participants as p')
      .whereRef('p.id', '=', 'm.participant_id')
      .select(REVISION_COLUMNS)
      .where(isPublic('m'))
  )
}

type Row = Awaited<ReturnType<ReturnType<typeof revisionsWithEditor>['executeTakeFirstOrThrow']>>

/** The one place revision rows become public records: quarantined text and title never leave it. */
export function toMemoryRevision(row: Row): MemoryRevision {
  const quarantined = Number(row.quarantined) === 1
  return {
    id: Number(row.id),
    memory_id: row.memory_id,
    version: Number(row.version),
    title: quarantined ? null : row.title,
    kind: row.kind,
    content: quarantined ? null : row.content,
    source_ids: JSON.parse(row.source_ids) as number[],
    reason: quarantined ? null : row.reason,
    created_at: row.created_at,
    quarantined,
    ...moderationOf(row, quarantined),
    ...envelope(row.signals, [row.title, row.content, row.reason], quarantined),
    ...attributionOf(row),
  }
}

/** Note revisions after a cursor, one keyset page. */
export async function revisionsAfter(db: Db, request: PageRequest): Promise<Page<MemoryRevision>> {
  return keysetPage(revisionsWithEditor(db), 'm.id', request, toMemoryRevision, (r) => r.id)
}

/** The newest revisions, oldest first. */
export async function latestRevisions(db: Db, limit: number): Promise<MemoryRevision[]> {
  const rows = await revisionsWithEditor(db).orderBy('m.id', 'desc').limit(limit).execute()
  return rows.reverse().map(toMemoryRevision)
}

/** Write side of shared notes; public reads go through memory-revisions.ts and its masking mapper. */
export async function findOwnRevisionByClientId(db: Db, participantId: string, clientId: string) {
  return db
    .selectFrom('memory_revisions')
    .selectAll()
    .where('participant_id', '=', participantId)
    .where('client_id', '=', clientId)
    .executeTakeFirst()
}

/** Which of the given ids name existing contributions. */
export async function existingContributionIds(db: Db, ids: number[]): Promise<Set<number>> {
  const rows = await db.selectFrom('contributions').select('id').where('id', 'in', ids).where('id', '>', 0).execute()
  return new Set(rows.map((r) => Number(r.id)))
}

/** A note with all its revisions, oldest first, through the one masking mapper. */
export async function noteRevisions(db: Db, memoryId: string): Promise<MemoryRevision[]> {
  const rows = await revisionsWithEditor(db).where('m.memory_id', '=', memoryId).orderBy('m.version', 'asc').execute()
  return rows.map(toMemoryRevision)
}
