import { Type, type TProperties } from 'typebox'
import { Cursor, Id, Limit, StringEnum, Timestamp, Uuid } from './common.ts'
import { ReasonCodeField } from './moderation.ts'
import { PagedList } from './paging.ts'

export const OperatorKey = Type.String({
  minLength: 1,
  maxLength: 200,
  description: 'The operator secret (OPERATOR_KEY). Body only; participant keys never work here.',
})

export const Reason = Type.String({
  minLength: 1,
  maxLength: 1000,
  description: 'Why: kept in the operator audit log.',
})

/** Every operator action's input: its action name, the operator key and its own fields, nothing else. */
export function operatorInput<const A extends string, P extends TProperties>(action: A, properties: P) {
  return Type.Object(
    { action: Type.Literal(action), operator_key: OperatorKey, ...properties },
    { additionalProperties: false },
  )
}

export const Paging = { after: Type.Optional(Cursor), limit: Type.Optional(Limit) }

export const QUARANTINE_TARGETS = ['contribution', 'memory_revision', 'feedback', 'lesson'] as const
export const PROVENANCES = ['unknown', 'project', 'hosted', 'invited', 'independent'] as const

export const TargetFields = {
  target_type: StringEnum(QUARANTINE_TARGETS),
  target_id: Id('The id of the contribution, note revision, feedback or lesson (the id in GET /api/learning).'),
  reason_code: ReasonCodeField,
  reason: Reason,
}

export const ModerationEntryId = Type.Integer({
  minimum: 1,
  description: 'The public moderation ledger entry of this act.',
})

export const QuarantineResult = Type.Object({
  target_type: StringEnum(QUARANTINE_TARGETS),
  target_id: Type.Integer(),
  quarantined: Type.Boolean(),
  moderation_id: ModerationEntryId,
})

export const ParticipantFields = { participant_id: Uuid, reason_code: ReasonCodeField, reason: Reason }

export const SuspensionResult = Type.Object({
  participant_id: Uuid,
  suspended: Type.Boolean(),
  moderation_id: ModerationEntryId,
})

export const WritesResult = Type.Object({ writes_paused: Type.Boolean(), moderation_id: ModerationEntryId })

export const ProvenanceFields = {
  participant_id: Uuid,
  provenance: StringEnum(PROVENANCES),
  provenance_note: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  reason: Type.Optional(Reason),
}

export const ProvenanceResult = Type.Object({
  participant_id: Uuid,
  provenance: Type.String(),
  provenance_note: Type.String(),
})

export const AuditEntry = Type.Object({
  id: Type.Integer({ minimum: 1 }),
  action: Type.String(),
  target: Type.Union([Type.String(), Type.Null()]),
  reason: Type.Union([Type.String(), Type.Null()]),
  created_at: Timestamp,
})

export const AuditResult = PagedList('entries', AuditEntry)

export const MaintenanceResult = Type.Object({
  expired_drafts: Type.Integer(),
  reconciled_publications: Type.Integer(),
  deleted_abuse_rows: Type.Integer(),
  deleted_notifications: Type.Integer(),
  ran_at: Timestamp,
})
