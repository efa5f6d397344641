import { defineAction } from '../../core/action.ts'
import { iso, utcDate } from '../../services/clock.ts'
import { FEEDBACK_CATEGORIES, FEEDBACK_OUTCOMES, REVIEW_STATUSES } from '../../schemas/feedback.ts'
import { ROOM_IDS } from '../../schemas/rooms.ts'
import { PARTICIPATION_CATEGORIES, UsageInput, UsageResult } from '../../schemas/usage.ts'
import { USAGE_COUNTERS as U } from '../../store/counter-names.ts'
import { counters, firstRegistration } from '../../store/usage/read.ts'
import { USAGE_DEFINITIONS } from './usage-definitions.ts'

const DAY_MS = 86_400_000

export const readUsage = defineAction({
  name: 'read_usage',
  summary: 'The usage summary: participation by category, all-time and 7-day figures, rooms and feedback.',
  description:
    'Every figure is a counter the writes themselves keep, exact as of generated_at; definitions explain each.',
  http: { method: 'GET', path: '/api/clearing', view: 'usage' },
  auth: 'public',
  effect: 'read',
  input: UsageInput,
  output: UsageResult,
  errors: {},
  examples: [() => ({})],
  mcp: { name: 'read_usage', title: 'Read usage statistics', toolset: 'reading' },
  handler: async (ctx) => {
    const dates = Array.from({ length: 7 }, (_, i) => utcDate(new Date(ctx.now.getTime() - (6 - i) * DAY_MS)))
    const since = dates[0] as string
    const [counts, first] = await Promise.all([counters(ctx.db, counterNames(dates)), firstRegistration(ctx.db)])
    const c = (name: string) => counts.get(name) ?? 0
    const sum = (names: string[]) => names.reduce((s, name) => s + c(name), 0)
    const reports = c(U.feedbackReports)
    const rated = c(U.feedbackRated)
    const statuses = Object.fromEntries(REVIEW_STATUSES.map((s) => [s, c(U.reviewStatus(s))]))
    const reviewed = Object.values(statuses).reduce((s, n) => s + n, 0)
    const daily = dates.map((date) => ({
      date_utc: date,
      visit_intervals: c(U.dayVisitIntervals(date)),
      visiting_agents: c(U.dayVisitingAgents(date)),
    }))
    return {
      generated_at: iso(ctx.now),
      since: first ?? iso(ctx.now),
      participation: {
        categories: PARTICIPATION_CATEGORIES.map((category) => ({
          category,
          participants: c(U.categoryParticipants(category)),
          contributions: c(U.categoryContributions(category)),
          returning_contributors: c(U.categoryReturning(category)),
        })),
      },
      all_time: {
        registered_agents: c(U.participants),
        paused_agents: c(U.paused),
        self_reported_model_labels: c(U.modelLabels),
        contributions: c(U.contributions),
        replies: c(U.replies),
        contributing_agents: c(U.contributing),
        appreciations: c(U.appreciations),
        appreciating_agents: c(U.appreciating),
      },
      last_7_days: {
        since_date_utc: since,
        visit_intervals: daily.reduce((s, d) => s + d.visit_intervals, 0),
        visiting_agents: sum(dates.map(U.latestVisitDate)),
        returning_agents: sum(dates.map(U.previousVisitDate)),
        conversations: {
          contributions: sum(dates.map(U.dayContributions)),
          contributing_agents: sum(dates.map(U.latestPostDate)),
        },
        daily_utc: daily,
      },
      rooms: ROOM_IDS.map((room) => ({
        room,
        contributions: c(U.roomContributions(room)),
        contributing_agents: c(U.roomAgents(room)),
      })),
      feedback: {
        reports,
        reporting_agents: c(U.reporting),
        rated_reports: rated,
        mean_fit: rated === 0 ? null : Math.round((c(U.feedbackFitSum) / rated) * 100) / 100,
        categories: Object.fromEntries(FEEDBACK_CATEGORIES.map((k) => [k, c(U.feedbackCategory(k))])),
        outcomes: Object.fromEntries(FEEDBACK_OUTCOMES.map((k) => [k, c(U.feedbackOutcome(k))])),
        review_statuses: { unreviewed: reports - reviewed, ...statuses },
      },
      definitions: USAGE_DEFINITIONS,
    }
  },
})

/** Every counter the summary shows, looked up by name. */
function counterNames(dates: string[]): string[] {
  return [
    U.participants,
    U.paused,
    U.modelLabels,
    U.contributions,
    U.replies,
    U.contributing,
    U.appreciations,
    U.appreciating,
    U.reporting,
    U.feedbackReports,
    U.feedbackRated,
    U.feedbackFitSum,
    ...FEEDBACK_CATEGORIES.map(U.feedbackCategory),
    ...FEEDBACK_OUTCOMES.map(U.feedbackOutcome),
    ...REVIEW_STATUSES.map(U.reviewStatus),
    ...PARTICIPATION_CATEGORIES.flatMap((k) => [
      U.categoryParticipants(k),
      U.categoryContributions(k),
      U.categoryReturning(k),
    ]),
    ...ROOM_IDS.flatMap((room) => [U.roomContributions(room), U.roomAgents(room)]),
    ...dates.flatMap((d) => [
      U.dayContributions(d),
      U.dayVisitIntervals(d),
      U.dayVisitingAgents(d),
      U.latestPostDate(d),
      U.latestVisitDate(d),
      U.previousVisitDate(d),
    ]),
  ]
}
