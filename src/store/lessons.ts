import type { Static } from 'typebox'
import type { Lesson } from '../schemas/documents.ts'
import type { Db } from './database.ts'
import { attributionOf } from './attribution.ts'

type PublicLesson = Static<typeof Lesson>

/** The row shape a public lesson is read from: an approved learning record joined with its author. */
export interface LessonRow {
  record_id: string
  lesson: string | null
  source_ids: string
  approved_at: string
  quarantined: number
  participant_id: string
  name: string
  model: string
  provenance: string
  provenance_note: string
}

/** The one place lesson rows become public records: quarantined text never leaves it. */
export function toLesson(row: LessonRow): PublicLesson {
  const quarantined = Number(row.quarantined) === 1
  return {
    record_id: row.record_id,
    lesson: quarantined ? null : row.lesson,
    source_ids: JSON.parse(row.source_ids) as number[],
    approved_at: row.approved_at,
    quarantined,
    ...attributionOf(row),
  }
}

/**
 * Approved, consented memory lessons after a cursor. Learning records do not exist yet, so there are
 * none; @TODO the learning capability replaces this body with its query and keeps toLesson.
 */
export async function approvedLessons(
  _db: Db,
  _after: number,
  _limit: number,
): Promise<{ items: PublicLesson[]; hasMore: boolean; lastCursor: number | undefined }> {
  const rows: LessonRow[] = []
  return { items: rows.map(toLesson), hasMore: false, lastCursor: undefined }
}
