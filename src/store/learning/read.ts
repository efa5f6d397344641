import { sql, type Selectable } from 'kysely'
import type { Db } from '../../db/database.ts'
import type { LearningRevisionTable } from './tables.ts'
import type { Static } from 'typebox'
import type { LearningRecord, LearningRevision } from '../../schemas/learning.ts'
import { consentStates } from './consents.ts'
import { IS_EXPORTABLE, IS_PUBLIC, recordsWithCurrent } from './lessons.ts'
import { keysetPage, type Page, type PageRequest } from '../pager.ts'

type PrivateRecord = Static<typeof LearningRecord>
type Revision = Static<typeof LearningRevision>

/**
 * Private reads of learning records: the author's own (my_learning) and the operators' (list_learning).
 * Withdrawn records are never read again. `public` and `exportable` come from the same SQL rules as the
 * lessons read and the export, so they cannot disagree with them.
 */
function privateRecords(db: Db) {
  return recordsWithCurrent(db)
    .select([
      'r.id',
      'r.seq',
      'r.participant_id',
      'r.version',
      'r.review',
      'r.lesson_id',
      'r.approved_at',
      'r.quarantined',
      'r.created_at',
      'r.updated_at',
      sql<number>`case when ${IS_PUBLIC} then 1 else 0 end`.as('is_public'),
      sql<number>`case when ${IS_EXPORTABLE} then 1 else 0 end`.as('is_exportable'),
    ])
    .where('r.withdrawn_at', 'is', null)
}

type RecordRow = Awaited<ReturnType<ReturnType<typeof privateRecords>['executeTakeFirstOrThrow']>>

function toRevision(row: Selectable<LearningRevisionTable>): Revision {
  return {
    version: Number(row.version),
    // Withdrawn records are never read, so their erased (null) text never reaches here.
    lesson: row.lesson ?? '',
    feedback: row.feedback ?? '',
    revision: row.revision ?? '',
    outcome: row.outcome ?? '',
    source_ids: JSON.parse(row.source_ids) as number[],
    memory_allowed: Number(row.memory_allowed) === 1,
    training_allowed: Number(row.training_allowed) === 1,
    terms_version: row.terms_version,
    created_at: row.created_at,
  }
}

/** Completes a page of record rows with every revision and the consent in force for each source. */
async function withDetails(db: Db, page: Page<RecordRow>): Promise<Page<PrivateRecord>> {
  const ids = page.items.map((r) => r.id)
  const revisions = new Map<string, Revision[]>()
  if (ids.length > 0) {
    const rows = await db
      .selectFrom('learning_revisions')
      .selectAll()
      .where('record_id', 'in', ids)
      .orderBy('record_id')
      .orderBy('version')
      .execute()
    for (const row of rows) revisions.set(row.record_id, [...(revisions.get(row.record_id) ?? []), toRevision(row)])
  }
  const currentOf = (row: RecordRow) => revisions.get(row.id)?.at(-1) as Revision
  const sourceIds = [...new Set(page.items.flatMap((row) => currentOf(row).source_ids))]
  const states = await consentStates(db, sourceIds)
  const items = page.items.map((row): PrivateRecord => {
    const current = currentOf(row)
    return {
      record_id: row.id,
      seq: Number(row.seq),
      participant_id: row.participant_id,
      version: Number(row.version),
      review: row.review as PrivateRecord['review'],
      lesson_id: row.lesson_id === null ? null : Number(row.lesson_id),
      approved_at: row.approved_at,
      public: Number(row.is_public) === 1,
      exportable: Number(row.is_exportable) === 1,
      quarantined: Number(row.quarantined) === 1,
      created_at: row.created_at,
      updated_at: row.updated_at,
      current,
      revisions: revisions.get(row.id) ?? [],
      sources: current.source_ids.map((id) => ({
        contribution_id: id,
        ...(states.get(id) ?? { memory: 'not_given', research_training: 'not_given' }),
      })),
    }
  })
  return { ...page, items }
}

/** The author's own records after a record number. */
export async function ownRecords(db: Db, participantId: string, request: PageRequest) {
  const query = privateRecords(db).where('r.participant_id', '=', participantId)
  return withDetails(
    db,
    await keysetPage(
      query,
      'r.seq',
      request,
      (row) => row,
      (row) => Number(row.seq),
    ),
  )
}

/** Every record (optionally in one review state) after a record number, for the operators. */
export async function reviewQueue(db: Db, q: PageRequest & { review: string | undefined }) {
  const query = q.review === undefined ? privateRecords(db) : privateRecords(db).where('r.review', '=', q.review)
  return withDetails(
    db,
    await keysetPage(
      query,
      'r.seq',
      q,
      (row) => row,
      (row) => Number(row.seq),
    ),
  )
}

/** Whether a record's lesson is in the public lessons now. */
export async function isPublicLesson(db: Db, recordId: string): Promise<boolean> {
  const row = await recordsWithCurrent(db)
    .select('r.id')
    .where('r.id', '=', recordId)
    .where(IS_PUBLIC)
    .executeTakeFirst()
  return row !== undefined
}

/** The memory_allowed flag of a record's current version. */
export async function currentAllowsMemory(db: Db, recordId: string): Promise<boolean> {
  const row = await recordsWithCurrent(db).select('v.memory_allowed').where('r.id', '=', recordId).executeTakeFirst()
  return Number(row?.memory_allowed) === 1
}

/** Write side of learning records; reads go through learning-records.ts and lessons.ts. */
export async function findOwnLearningByClientId(db: Db, participantId: string, clientId: string) {
  return db
    .selectFrom('learning_revisions')
    .select(['record_id', 'version', 'payload_hash'])
    .where('participant_id', '=', participantId)
    .where('client_id', '=', clientId)
    .executeTakeFirst()
}

/** Which of the given ids name published contributions (provisional non-positive ids are not). */
export async function publicContributionIds(db: Db, ids: number[]): Promise<Set<number>> {
  const rows = await db.selectFrom('contributions').select('id').where('id', 'in', ids).where('id', '>', 0).execute()
  return new Set(rows.map((r) => Number(r.id)))
}

/** The author of a published contribution, or undefined when there is none. */
export async function contributionAuthor(db: Db, id: number): Promise<string | undefined> {
  const row = await db
    .selectFrom('contributions')
    .select('participant_id')
    .where('id', '=', id)
    .where('id', '>', 0)
    .executeTakeFirst()
  return row?.participant_id
}
