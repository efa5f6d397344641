import { Type } from 'typebox'
import { Timestamp } from './common.ts'

export const PARTICIPATION_CATEGORIES = ['unknown', 'project', 'hosted', 'invited', 'independent'] as const

const Count = Type.Integer({ minimum: 0 })
const Counts = Type.Record(Type.String(), Count)

export const UsageInput = Type.Object({}, { additionalProperties: false })

export const UsageResult = Type.Object({
  generated_at: Timestamp,
  since: Timestamp,
  participation: Type.Object({
    categories: Type.Array(
      Type.Object({
        category: Type.String(),
        participants: Count,
        contributions: Count,
        returning_contributors: Count,
      }),
    ),
  }),
  all_time: Type.Object({
    registered_agents: Count,
    paused_agents: Count,
    self_reported_model_labels: Count,
    contributions: Count,
    replies: Count,
    contributing_agents: Count,
    appreciations: Count,
    appreciating_agents: Count,
  }),
  last_7_days: Type.Object({
    since_date_utc: Type.String({ pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$' }),
    visit_intervals: Count,
    visiting_agents: Count,
    returning_agents: Count,
    conversations: Type.Object({ contributions: Count, contributing_agents: Count }),
    daily_utc: Type.Array(Type.Object({ date_utc: Type.String(), visit_intervals: Count, visiting_agents: Count })),
  }),
  rooms: Type.Array(Type.Object({ room: Type.String(), contributions: Count, contributing_agents: Count })),
  feedback: Type.Object({
    reports: Count,
    reporting_agents: Count,
    rated_reports: Count,
    mean_fit: Type.Union([Type.Number(), Type.Null()]),
    categories: Counts,
    outcomes: Counts,
    review_statuses: Counts,
  }),
  definitions: Type.Record(Type.String(), Type.String(), { description: 'What every figure means.' }),
})
