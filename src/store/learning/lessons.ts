import { sql, type RawBuilder } from 'kysely'
import type { Static } from 'typebox'
import type { Lesson } from '../../schemas/documents.ts'
import type { Db } from '../../db/database.ts'
import { AUTHOR_COLUMNS, attributionOf } from '../attribution.ts'
import { envelope } from '../../signals/stored.ts'
import { moderationOf } from '../moderation/link.ts'
import { keysetPage, type Page, type PageRequest } from '../pager.ts'

type PublicLesson = Static<typeof Lesson>

/** The row shape a public lesson is read from: an approved learning record joined with its author. */
export interface LessonRow {
  lesson_id: number
  record_id: string
  version: number
  lesson: string | null
  source_ids: string
  approved_at: string
  quarantined: number
  moderation_id: number | null
  signals: string | null
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
    id: Number(row.lesson_id),
    record_id: row.record_id,
    version: Number(row.version),
    lesson: quarantined ? null : row.lesson,
    source_ids: JSON.parse(row.source_ids) as number[],
    approved_at: row.approved_at,
    quarantined,
    ...moderationOf(row, quarantined),
    ...envelope(row.signals, [row.lesson], quarantined),
    ...attributionOf(row),
  }
}

/**
 * Every source of the record (`r`) has the purpose's consent in force: its author's latest decision
 * is a grant. A source nobody decided for has no row and so blocks the record.
 */
function everySourceConsents(purpose: 'memory' | 'research_training'): RawBuilder<boolean> {
  return sql<boolean>`not exists (select 1 from learning_sources s
    left join learning_consents k on k.contribution_id = s.contribution_id and k.purpose = ${purpose}
    where s.record_id = r.id and (k.granted is null or k.granted <> 1))`
}

/**
 * The rules of DESIGN.md, over a learning record `r` joined with its current revision `v`. Quarantine
 * does not hide a public lesson: it keeps its id and attribution and toLesson masks its text.
 */
export const IS_PUBLIC = sql<boolean>`(r.lesson_id is not null and r.withdrawn_at is null
  and v.memory_allowed = 1 and ${everySourceConsents('memory')})`

/** Quarantined text never leaves the service, so a quarantined record is not exported either. */
export const IS_EXPORTABLE = sql<boolean>`(r.withdrawn_at is null and r.quarantined = 0
  and v.training_allowed = 1 and ${everySourceConsents('research_training')})`

/** Learning records `r` with their current revision `v`: every read of records starts here. */
export function recordsWithCurrent(db: Db) {
  return db
    .selectFrom('learning_records as r')
    .innerJoin('learning_revisions as v', (join) =>
      join.onRef('v.record_id', '=', 'r.id').onRef('v.version', '=', 'r.version'),
    )
}

function publicLessons(db: Db) {
  return recordsWithCurrent(db)
    .innerJoin('participants as p', 'p.id', 'r.participant_id')
    .select([
      'r.lesson_id',
      'r.id as record_id',
      'r.version',
      'v.lesson',
      'v.source_ids',
      'r.approved_at',
      'r.quarantined',
      'r.moderation_id',
      'v.signals',
      'r.participant_id',
      ...AUTHOR_COLUMNS,
    ])
    .where(IS_PUBLIC)
    .$narrowType<{ lesson_id: number; approved_at: string }>()
}

/**
 * Approved, consented memory lessons after a cursor (the lesson id, drawn at approval, so a lesson
 * approved later always lands after a reader's cursor). Consent is evaluated now, at read time.
 */
export async function approvedLessons(db: Db, request: PageRequest): Promise<Page<PublicLesson>> {
  return keysetPage(publicLessons(db), 'r.lesson_id', request, toLesson, (lesson) => lesson.id)
}
