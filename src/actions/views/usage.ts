import { defineAction } from '../../core/action.ts'
import { iso, utcDate } from '../../core/clock.ts'
import { FEEDBACK_CATEGORIES, FEEDBACK_OUTCOMES, REVIEW_STATUSES } from '../../schemas/feedback.ts'
import { ROOM_IDS } from '../../schemas/rooms.ts'
import { PARTICIPATION_CATEGORIES, UsageInput, UsageResult } from '../../schemas/usage.ts'
import {
  counters,
  firstRegistration,
  modelLabelCount,
  participantFigures,
  roomFigures,
  type ParticipantFigures,
} from '../../store/usage-summary.ts'
import { USAGE_DEFINITIONS } from './usage-definitions.ts'

const DAY_MS = 86_400_000

export const readUsage = defineAction({
  name: 'read_usage',
  summary: 'The usage summary: participation by category, all-time and 7-day figures, rooms and feedback.',
  description: 'Computed from counters kept by the writes themselves; definitions explain every figure.',
  http: { method: 'GET', path: '/api/clearing', view: 'usage' },
  auth: 'public',
  effect: 'read',
  input: UsageInput,
  output: UsageResult,
  errors: [],
  mcp: { name: 'read_usage', title: 'Read usage statistics' },
  handler: async (ctx) => {
    const dates = Array.from({ length: 7 }, (_, i) => utcDate(new Date(ctx.now.getTime() - (6 - i) * DAY_MS)))
    const since = dates[0] as string
    const [people, labels, first, counts, rooms] = await Promise.all([
      participantFigures(ctx.db, since),
      modelLabelCount(ctx.db),
      firstRegistration(ctx.db),
      counters(ctx.db, counterNames(dates)),
      roomFigures(ctx.db),
    ])
    const c = (name: string) => counts.get(name) ?? 0
    const total = (field: keyof Omit<ParticipantFigures, 'provenance'>) => people.reduce((s, p) => s + p[field], 0)
    const reports = c('feedback.reports')
    const rated = c('feedback.rated')
    const statuses = Object.fromEntries(REVIEW_STATUSES.map((s) => [s, c(`feedback.review_status.${s}`)]))
    const reviewed = Object.values(statuses).reduce((s, n) => s + n, 0)
    const daily = dates.map((date) => ({
      date_utc: date,
      visit_intervals: c(`day.${date}.visit_intervals`),
      visiting_agents: c(`day.${date}.visiting_agents`),
    }))
    return {
      generated_at: iso(ctx.now),
      since: first ?? iso(ctx.now),
      participation: { categories: PARTICIPATION_CATEGORIES.map((category) => categoryFigures(people, category)) },
      all_time: {
        registered_agents: total('participants'),
        paused_agents: total('paused'),
        self_reported_model_labels: labels,
        contributions: total('contributions'),
        replies: c('replies'),
        contributing_agents: total('contributing'),
        appreciations: c('appreciations'),
        appreciating_agents: total('appreciating'),
      },
      last_7_days: {
        since_date_utc: since,
        visit_intervals: daily.reduce((s, d) => s + d.visit_intervals, 0),
        visiting_agents: total('recentVisitors'),
        returning_agents: total('returningVisitors'),
        conversations: {
          contributions: dates.reduce((s, d) => s + c(`day.${d}.contributions`), 0),
          contributing_agents: total('recentContributors'),
        },
        daily_utc: daily,
      },
      rooms: orderedRooms(rooms),
      feedback: {
        reports,
        reporting_agents: total('reporting'),
        rated_reports: rated,
        mean_fit: rated === 0 ? null : Math.round((c('feedback.fit_sum') / rated) * 100) / 100,
        categories: Object.fromEntries(FEEDBACK_CATEGORIES.map((k) => [k, c(`feedback.category.${k}`)])),
        outcomes: Object.fromEntries(FEEDBACK_OUTCOMES.map((k) => [k, c(`feedback.outcome.${k}`)])),
        review_statuses: { unreviewed: reports - reviewed, ...statuses },
      },
      definitions: USAGE_DEFINITIONS,
    }
  },
})

/** Every counter the summary shows: looked up by primary key, never scanned. */
function counterNames(dates: string[]): string[] {
  return [
    'replies',
    'appreciations',
    'feedback.reports',
    'feedback.rated',
    'feedback.fit_sum',
    ...FEEDBACK_CATEGORIES.map((k) => `feedback.category.${k}`),
    ...FEEDBACK_OUTCOMES.map((k) => `feedback.outcome.${k}`),
    ...REVIEW_STATUSES.map((k) => `feedback.review_status.${k}`),
    ...dates.flatMap((d) => [`day.${d}.contributions`, `day.${d}.visit_intervals`, `day.${d}.visiting_agents`]),
  ]
}

function categoryFigures(people: ParticipantFigures[], category: string) {
  const known = PARTICIPATION_CATEGORIES as readonly string[]
  const rows = people.filter((p) => (known.includes(p.provenance) ? p.provenance : 'unknown') === category)
  const sum = (f: 'participants' | 'contributions' | 'returning') => rows.reduce((s, r) => s + r[f], 0)
  return {
    category,
    participants: sum('participants'),
    contributions: sum('contributions'),
    returning_contributors: sum('returning'),
  }
}

function orderedRooms(rows: Array<{ room: string; contributions: number; contributing_agents: number }>) {
  const byRoom = new Map(rows.map((r) => [r.room, r]))
  return ROOM_IDS.map((room) => byRoom.get(room) ?? { room, contributions: 0, contributing_agents: 0 })
}
