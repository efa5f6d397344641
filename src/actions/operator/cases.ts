import { iso } from '../../services/clock.ts'
import { ServiceError } from '../../services/errors.ts'
import { LIMITS } from '../../schemas/common.ts'
import {
  CaseList,
  CaseListInput,
  DecidePrivacyFields,
  DecideReportFields,
  DecisionResult,
} from '../../schemas/cases.ts'
import { operatorInput } from '../../schemas/operator.ts'
import { listPaging, pagedResult } from '../../schemas/paging.ts'
import { lockCase, updateCase, type CaseKind, type CaseRow } from '../../store/cases/write.ts'
import { listCases } from '../../store/cases/read.ts'
import { quarantineNote, setQuarantined } from '../../store/moderation/write.ts'
import { insertLedgerEntry } from '../../store/moderation/write.ts'
import { REASON_CODES, type LedgerTarget, type ReasonCode } from '../../schemas/moderation.ts'
import { lockParticipant, updateParticipant } from '../../store/participants/write.ts'
import type { WriteContext } from '../../core/action.ts'
import { reportedItem } from '../../store/cases/reported.ts'
import { operatorAction } from '../../core/operator-action.ts'

/** What an erased profile field reads as: the row and its history stay, the personal label goes. */
export const ERASED = '[erased]'

const listAction = (name: 'list_reports' | 'list_privacy_requests', kind: CaseKind) =>
  operatorAction({
    name,
    effect: 'read',
    summary: `Operator: ${kind === 'report' ? 'content reports' : 'privacy requests'}, oldest first, optionally by status.`,
    input: operatorInput(name, CaseListInput),
    output: CaseList,
    errors: {},
    examples: [(refs) => ({ operator_key: refs.operatorKey })],
    paging: listPaging('cases'),
    handler: async (ctx, input) => {
      const page = await listCases(ctx.db, {
        kind,
        status: input.status,
        after: input.after ?? 0,
        limit: input.limit ?? LIMITS.page_default,
      })
      const items = []
      for (const row of page.items) {
        // A report card shows what it names, so the operator decides on the text itself.
        const reported =
          kind === 'report' ? { reported: await reportedItem(ctx.db, row.target_type, row.target_id) } : {}
        items.push({ ...toOperatorCase(row), ...reported })
      }
      return pagedResult('cases', { ...page, items })
    },
  })

export const listReports = listAction('list_reports', 'report')
export const listPrivacyRequests = listAction('list_privacy_requests', 'privacy')

export const decideReport = operatorAction({
  name: 'decide_report',
  summary: 'Operator: record the decision on a report; quarantine true also masks the reported item.',
  input: operatorInput('decide_report', DecideReportFields),
  output: DecisionResult,
  errors: { not_found: 400, state_conflict: 409 },
  examples: [(refs) => ({ operator_key: refs.operatorKey, case_id: refs.caseId, decision: 'no_action' })],
  handler: async (ctx, input) => {
    const row = await openCase(ctx, input.case_id, 'report')
    if (input.quarantine) await quarantineTarget(ctx, row, reasonCodeOf(row, input.reason_code))
    await decide(ctx, row, input.decision, input.note)
    return { case_id: row.id, status: 'decided' as const, decision: input.decision, quarantined: !!input.quarantine }
  },
})

export const decidePrivacyRequest = operatorAction({
  name: 'decide_privacy_request',
  summary: 'Operator: record the outcome of a privacy request; for a granted deletion, erase the named profile fields.',
  input: operatorInput('decide_privacy_request', DecidePrivacyFields),
  output: DecisionResult,
  errors: { not_found: 400, state_conflict: 409 },
  examples: [(refs) => ({ operator_key: refs.operatorKey, case_id: refs.privacyCaseId, decision: 'declined' })],
  handler: async (ctx, input) => {
    const row = await openCase(ctx, input.case_id, 'privacy')
    const erased: string[] = []
    if (input.erase) {
      if (row.request_type !== 'deletion' || input.decision === 'declined') {
        throw new ServiceError('invalid_request', 'erase is only for a granted or partially granted deletion request.')
      }
      const participant = await lockParticipant(ctx.db, input.erase.participant_id)
      if (!participant) throw new ServiceError('not_found', `No participant ${input.erase.participant_id}.`)
      await updateParticipant(
        ctx.db,
        participant.id,
        Object.fromEntries(input.erase.fields.map((field) => [field, ERASED])),
      )
      erased.push(...input.erase.fields)
    }
    await decide(ctx, row, input.decision, input.note)
    return { case_id: row.id, status: 'decided' as const, decision: input.decision, erased_fields: erased }
  },
})

async function openCase(ctx: WriteContext, id: string, kind: CaseKind): Promise<CaseRow> {
  const row = await lockCase(ctx.db, id, kind)
  if (!row) throw new ServiceError('not_found', `No ${kind} case ${id}.`)
  if (row.status !== 'received') throw new ServiceError('state_conflict', `Case ${id} is already decided.`)
  return row
}

async function decide(ctx: WriteContext, row: CaseRow, decision: string, note: string | undefined) {
  await updateCase(ctx.db, row.id, {
    status: 'decided',
    decision,
    decision_note: note ?? null,
    decided_at: iso(ctx.now),
  })
}

/** The ledger's reason for a quarantine decided on a report: given, or the report's own category. */
function reasonCodeOf(row: CaseRow, given: ReasonCode | undefined): ReasonCode {
  const category = row.request_type ?? ''
  const fallback = (REASON_CODES as readonly string[]).includes(category) ? (category as ReasonCode) : undefined
  const code = given ?? fallback
  if (code === undefined) {
    throw new ServiceError('invalid_request', `A ${category} report names no reason code: give reason_code.`, {
      details: [{ path: '/reason_code', message: 'required with quarantine for this report category' }],
    })
  }
  return code
}

/**
 * Masks what the report names and records it in the public ledger; an agent is not content
 * (suspend_participant handles identities), nor is a ledger entry (an appeal names one).
 */
async function quarantineTarget(ctx: WriteContext, row: CaseRow, reasonCode: ReasonCode): Promise<void> {
  const id = row.target_id ?? ''
  const numeric = /^[1-9][0-9]{0,15}$/.test(id) ? Number(id) : undefined
  if (row.target_type === 'agent') {
    throw new ServiceError('invalid_request', 'An agent is not content: use suspend_participant for identities.')
  }
  if (row.target_type === 'moderation') {
    throw new ServiceError('invalid_request', 'A moderation entry is not content: release or reinstate instead.')
  }
  const at = iso(ctx.now)
  const record = (target_type: LedgerTarget) =>
    insertLedgerEntry(ctx.db, { at, action: 'quarantine', target_type, target_id: id, reason_code: reasonCode })
  let found = false
  if (row.target_type === 'memory' && numeric === undefined)
    found = (await quarantineNote(ctx.db, id, at, await record('memory'))) > 0
  else if (row.target_type === 'memory' && numeric !== undefined)
    found = await setQuarantined(ctx.db, 'memory_revision', numeric, true, at, await record('memory_revision'))
  else if ((row.target_type === 'contribution' || row.target_type === 'feedback') && numeric !== undefined)
    found = await setQuarantined(ctx.db, row.target_type, numeric, true, at, await record(row.target_type))
  if (!found) throw new ServiceError('not_found', `The reported ${row.target_type} ${id} does not exist.`)
}

function toOperatorCase(row: CaseRow) {
  return {
    case_id: row.id,
    seq: Number(row.seq),
    status: row.status,
    request_type: row.request_type,
    target_type: row.target_type,
    target_id: row.target_id,
    text: row.text,
    contact: row.contact,
    decision: row.decision,
    decision_note: row.decision_note,
    created_at: row.created_at,
    decided_at: row.decided_at,
  }
}
