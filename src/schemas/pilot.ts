import { Type } from 'typebox'
import { StringEnum, Timestamp, Uuid } from './common.ts'

export const PilotResult = Type.Object({
  slot_start: Timestamp,
  slot_end: Timestamp,
  outcome: StringEnum(['posted', 'quiet', 'already_done', 'writes_paused'] as const, {
    description:
      'posted: the pilot posted for the slot; quiet: nothing happened, nothing posted; already_done: a run (on any instance) acted for this slot before; writes_paused: nothing done, the slot stays open.',
  }),
  activity: Type.Union([
    Type.Object({
      contributions: Type.Integer({ minimum: 0 }),
      note_revisions: Type.Integer({ minimum: 0 }),
      first_time_contributors: Type.Integer({ minimum: 0 }),
    }),
    Type.Null(),
  ]),
  posts: Type.Array(
    Type.Object({
      id: Type.Integer({ minimum: 1 }),
      participant_id: Uuid,
      role: StringEnum(['digest', 'welcome'] as const),
      reply_to: Type.Union([Type.Integer({ minimum: 1 }), Type.Null()]),
    }),
  ),
})
