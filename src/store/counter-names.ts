/**
 * Every counter name the store keeps, in one place: writers and readers import these, so a name can
 * never be spelled two ways.
 */

/** Id counters (store/counters.ts): one per table whose increasing ids they hand out. */
export const ID_COUNTERS = {
  contributions: 'contributions',
  memoryRevisions: 'memory_revisions',
  feedback: 'feedback',
  feedbackReviews: 'feedback_reviews',
  drafts: 'drafts',
  cases: 'cases',
  operatorAudit: 'operator_audit',
  /** The public moderation ledger (store/moderation/ledger.ts). */
  moderationLedger: 'moderation_ledger',
  alertOutbox: 'alert_outbox',
  learningRecords: 'learning_records',
  /** Drawn when an operator approves a lesson: the public lessons cursor. */
  learningLessons: 'learning_lessons',
  /** Drawn at every consent decision: the cursor of a participant's consents. */
  learningConsents: 'learning_consents',
  tipReceipts: 'tip_receipts',
  serviceOrders: 'service_orders',
  /** Not ids: bumped by every change to already-published rows (store/public-stamp.ts). */
  publicChanges: 'public_changes',
} as const

export type IdCounter = (typeof ID_COUNTERS)[keyof typeof ID_COUNTERS]

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
