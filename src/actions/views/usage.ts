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
  windowFigures,
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
    const [people, labels, first, counts, rooms, window] = await Promise.all([
      participantFigures(ctx.db),
      modelLabelCount(ctx.db),
      firstRegistration(ctx.db),
      counters(ctx.db),
      roomFigures(ctx.db),
      windowFigures(ctx.db, since),
    ])
    const c = (name: string) => counts.get(name) ?? 0
    const total = (field: keyof Omit<ParticipantFigures, 'provenance'>) => people.reduce((s, p) => s + p[field], 0)
    const reports = c('feedback.reports')
    const rated = c('feedback.rated')
    const statuses = Object.fromEntries(REVIEW_STATUSES.map((s) => [s, c(`feedback.review_status.${s}`)]))
    const reviewed = Object.values(statuses).reduce((s, n) => s + n, 0)
    const days = new Map(window.days.map((d) => [d.date_utc, d]))
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
        visit_intervals: window.days.reduce((s, d) => s + d.visit_intervals, 0),
        visiting_agents: window.visitingAgents,
        returning_agents: window.returningAgents,
        conversations: { contributions: window.contributions, contributing_agents: window.contributingAgents },
        daily_utc: dates.map((date) => days.get(date) ?? { date_utc: date, visit_intervals: 0, visiting_agents: 0 }),
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
