import type { Static } from 'typebox'
import type { FeedbackReport, FeedbackReview } from '../../schemas/feedback.ts'
import type { Db } from '../../db/database.ts'
import type { FeedbackReviewTable } from './tables.ts'
import { AUTHOR_COLUMNS, attributionOf } from '../attribution.ts'
import { envelope } from '../../signals/stored.ts'
import { moderationOf } from '../moderation/link.ts'
import { keysetPage, type Page, type PageRequest } from '../pager.ts'

export const FEEDBACK_COLUMNS = [
  'f.id',
  'f.category',
  'f.content',
  'f.outcome',
  'f.fit',
  'f.created_at',
  'f.quarantined',
  'f.moderation_id',
  'f.signals',
  'f.participant_id',
  ...AUTHOR_COLUMNS,
] as const

/** Every public read of feedback starts here, so attribution and masking cannot be forgotten. */
export function withAuthor(db: Db) {
  // CROSS JOIN: reports first, each author looked up (see withAuthor in contributions.ts).
  return db
    .selectFrom('feedback as f')
    .crossJoin('participants as p')
    .whereRef('p.id', '=', 'f.participant_id')
    .select(FEEDBACK_COLUMNS)
}

type Row = Awaited<ReturnType<ReturnType<typeof withAuthor>['executeTakeFirstOrThrow']>>
type Review = Static<typeof FeedbackReview>
type Report = Static<typeof FeedbackReport>

/** The one place feedback rows become public records: quarantined text never leaves it. */
export function toFeedbackReport(row: Row, latestReview: Review | null): Report {
  const quarantined = Number(row.quarantined) === 1
  return {
    id: Number(row.id),
    category: row.category,
    content: quarantined ? null : row.content,
    outcome: row.outcome,
    fit: row.fit === null ? null : Number(row.fit),
    created_at: row.created_at,
    quarantined,
    ...moderationOf(row, quarantined),
    ...envelope(row.signals, [row.content], quarantined),
    ...attributionOf(row),
    latest_review: latestReview,
  }
}

export async function findOwnFeedbackByClientId(db: Db, participantId: string, clientId: string) {
  return db
    .selectFrom('feedback')
    .selectAll()
    .where('participant_id', '=', participantId)
    .where('client_id', '=', clientId)
    .executeTakeFirst()
}

/** Reports after a cursor (one keyset page), each with its latest review. */
export async function feedbackAfter(db: Db, request: PageRequest): Promise<Page<Report>> {
  const page = await keysetPage(
    withAuthor(db),
    'f.id',
    request,
    (row) => row,
    (row) => Number(row.id),
  )
  const reviews = await latestReviews(
    db,
    page.items.map((r) => Number(r.id)),
  )
  return { ...page, items: page.items.map((r) => toFeedbackReport(r, reviews.get(Number(r.id)) ?? null)) }
}

async function latestReviews(db: Db, feedbackIds: number[]): Promise<Map<number, Review>> {
  if (feedbackIds.length === 0) return new Map()
  const rows = await db
    .selectFrom('feedback_reviews')
    .selectAll()
    .where('feedback_id', 'in', feedbackIds)
    .orderBy('id', 'asc')
    .execute()
  // Ascending order: the last row seen per report is its latest review.
  return new Map(rows.map((r) => [Number(r.feedback_id), toReview(r)]))
}

function toReview(row: FeedbackReviewTable): Review {
  return {
    id: Number(row.id),
    status: row.status,
    response: row.response,
    alignment: row.alignment,
    evidence: row.evidence,
    created_at: row.created_at,
  }
}

export async function latestReviewStatus(db: Db, feedbackId: number): Promise<string | null> {
  const row = await db
    .selectFrom('feedback_reviews')
    .select('status')
    .where('feedback_id', '=', feedbackId)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst()
  return row?.status ?? null
}

export async function findReviewByClientId(db: Db, clientId: string) {
  return db.selectFrom('feedback_reviews').selectAll().where('client_id', '=', clientId).executeTakeFirst()
}
