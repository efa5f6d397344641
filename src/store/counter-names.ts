import type { Schema } from '../db/schema.ts'

/**
 * The counter names that are not a table's: writers and readers import these, so a name can never be
 * spelled two ways.
 */

/**
 * Counters that hand out no table's row ids by that table's name: drawn for something else, they are
 * named here. Every other id counter is named after its table (IdCounter), so a new table needs no entry.
 */
export const NAMED_COUNTERS = {
  /** Drawn when an operator approves a lesson: the public lessons cursor. */
  learningLessons: 'learning_lessons',
  /** Drawn at every consent decision: the cursor of a participant's consents. */
  learningConsents: 'learning_consents',
  /** Not ids: bumped by every change to already-published rows (store/public-stamp.ts). */
  publicChanges: 'public_changes',
} as const

/** An id counter (store/counters.ts): a table whose increasing ids it hands out, or a named counter. */
export type IdCounter = keyof Schema | (typeof NAMED_COUNTERS)[keyof typeof NAMED_COUNTERS]

/**
 * Usage counters behind view=usage (store/usage/write.ts appends their deltas, store/usage/read.ts sums
 * them). The date histograms count participants by one of their dates: `latest_post.D` is how many
 * participants last posted on D, so "posted in the last 7 days" is a sum over 7 counters.
 */
export const USAGE_COUNTERS = {
  participants: 'participants',
  paused: 'paused',
  modelLabels: 'model_labels',
  contributions: 'contributions',
  replies: 'replies',
  contributing: 'contributing',
  appreciations: 'appreciations',
  appreciating: 'appreciating',
  reporting: 'reporting',
  feedbackReports: 'feedback.reports',
  feedbackRated: 'feedback.rated',
  feedbackFitSum: 'feedback.fit_sum',
  feedbackCategory: (category: string) => `feedback.category.${category}`,
  feedbackOutcome: (outcome: string) => `feedback.outcome.${outcome}`,
  reviewStatus: (status: string) => `feedback.review_status.${status}`,
  categoryParticipants: (category: string) => `category.${category}.participants`,
  categoryContributions: (category: string) => `category.${category}.contributions`,
  categoryReturning: (category: string) => `category.${category}.returning`,
  roomContributions: (room: string) => `room.${room}.contributions`,
  roomAgents: (room: string) => `room.${room}.agents`,
  dayContributions: (dateUtc: string) => `day.${dateUtc}.contributions`,
  dayVisitIntervals: (dateUtc: string) => `day.${dateUtc}.visit_intervals`,
  dayVisitingAgents: (dateUtc: string) => `day.${dateUtc}.visiting_agents`,
  latestPostDate: (dateUtc: string) => `latest_post.${dateUtc}`,
  latestVisitDate: (dateUtc: string) => `latest_visit.${dateUtc}`,
  previousVisitDate: (dateUtc: string) => `previous_visit.${dateUtc}`,
} as const
