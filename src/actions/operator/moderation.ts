import { Type } from 'typebox'
import { iso } from '../../services/clock.ts'
import { ServiceError } from '../../services/errors.ts'
import {
  operatorInput,
  ParticipantFields,
  ProvenanceFields,
  ProvenanceResult,
  QuarantineResult,
  Reason,
  SuspensionResult,
  TargetFields,
  WritesResult,
} from '../../schemas/operator.ts'
import { WRITES_PAUSED } from '../../store/operator/flags.ts'
import { writeFlag } from '../../store/operator/write.ts'
import { setQuarantined } from '../../store/moderation/write.ts'
import { insertLedgerEntry } from '../../store/moderation/write.ts'
import { ReasonCodeField } from '../../schemas/moderation.ts'
import { lockParticipant, setParticipantProvenance, updateParticipant } from '../../store/participants/write.ts'
import type { WriteContext } from '../../core/action.ts'
import { operatorAction } from '../../core/operator-action.ts'

const quarantineAction = (name: 'quarantine' | 'release', on: boolean) =>
  operatorAction({
    name,
    summary: on
      ? 'Operator: mask a contribution, note revision, feedback or lesson in every public read (the original is kept).'
      : 'Operator: lift a quarantine; the item reads normally again.',
    input: operatorInput(name, TargetFields),
    output: QuarantineResult,
    errors: { not_found: 400 },
    examples: [
      (refs) => ({
        operator_key: refs.operatorKey,
        target_type: 'contribution',
        target_id: refs.contributionId,
        reason_code: 'spam',
        reason: on ? 'example' : 'x',
      }),
    ],
    handler: async (ctx, input) => {
      // The entry first, so the masked item can name it; a missing item rolls both back.
      const entry = await insertLedgerEntry(ctx.db, {
        at: iso(ctx.now),
        action: name,
        target_type: input.target_type,
        target_id: String(input.target_id),
        reason_code: input.reason_code,
      })
      const found = await setQuarantined(ctx.db, input.target_type, input.target_id, on, iso(ctx.now), entry)
      if (!found) throw new ServiceError('not_found', `No ${input.target_type} ${input.target_id}.`)
      return { target_type: input.target_type, target_id: input.target_id, quarantined: on, moderation_id: entry }
    },
  })

export const quarantine = quarantineAction('quarantine', true)
export const release = quarantineAction('release', false)

const suspensionAction = (name: 'suspend_participant' | 'reinstate_participant', on: boolean) =>
  operatorAction({
    name,
    summary: on
      ? 'Operator: suspend a participant; every write with their key answers 403 until reinstated.'
      : 'Operator: lift a suspension.',
    input: operatorInput(name, ParticipantFields),
    output: SuspensionResult,
    errors: { not_found: 400 },
    examples: [
      (refs) => ({
        operator_key: refs.operatorKey,
        participant_id: refs.other.id,
        reason_code: on ? 'harassment' : 'other',
        reason: 'example',
      }),
    ],
    handler: async (ctx, input) => {
      await existingParticipant(ctx, input.participant_id)
      await updateParticipant(ctx.db, input.participant_id, { suspended: on ? 1 : 0 })
      const entry = await insertLedgerEntry(ctx.db, {
        at: iso(ctx.now),
        action: name,
        target_type: 'participant',
        target_id: input.participant_id,
        reason_code: input.reason_code,
      })
      return { participant_id: input.participant_id, suspended: on, moderation_id: entry }
    },
  })

export const suspendParticipant = suspensionAction('suspend_participant', true)
export const reinstateParticipant = suspensionAction('reinstate_participant', false)

const writesAction = (name: 'pause_writes' | 'resume_writes', paused: boolean) =>
  operatorAction({
    name,
    summary: paused
      ? 'Operator: pause every participant and public write (503 with Retry-After); reads go on.'
      : 'Operator: resume writes.',
    input: operatorInput(name, { reason_code: ReasonCodeField, reason: Type.Optional(Reason) }),
    output: WritesResult,
    errors: {},
    examples: [(refs) => ({ operator_key: refs.operatorKey, reason_code: paused ? 'spam' : 'other' })],
    handler: async (ctx, input) => {
      await writeFlag(ctx.db, WRITES_PAUSED, String(paused), iso(ctx.now))
      const entry = await insertLedgerEntry(ctx.db, {
        at: iso(ctx.now),
        action: name,
        target_type: 'writes',
        target_id: null,
        reason_code: input.reason_code,
      })
      return { writes_paused: paused, moderation_id: entry }
    },
  })

export const pauseWrites = writesAction('pause_writes', true)
export const resumeWrites = writesAction('resume_writes', false)

export const setProvenance = operatorAction({
  name: 'set_provenance',
  summary: 'Operator: set the provenance (and optionally its note) shown on a participant and their records.',
  input: operatorInput('set_provenance', ProvenanceFields),
  output: ProvenanceResult,
  errors: { not_found: 400 },
  examples: [(refs) => ({ operator_key: refs.operatorKey, participant_id: refs.other.id, provenance: 'independent' })],
  handler: async (ctx, input) => {
    const participant = await existingParticipant(ctx, input.participant_id)
    const note = input.provenance_note ?? participant.provenance_note
    await setParticipantProvenance(ctx.db, participant, input.provenance, note)
    return { participant_id: input.participant_id, provenance: input.provenance, provenance_note: note }
  },
})

async function existingParticipant(ctx: WriteContext, id: string) {
  const participant = await lockParticipant(ctx.db, id)
  if (!participant) throw new ServiceError('not_found', `No participant ${id}.`)
  return participant
}
