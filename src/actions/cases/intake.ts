import { defineAction, type ActionContext, type WriteContext } from '../../core/action.ts'
import { enforceRate } from '../../services/abuse.ts'
import { alertOperators } from '../../services/alerts.ts'
import { iso } from '../../services/clock.ts'
import { ServiceError } from '../../services/errors.ts'
import { newSecret } from '../../services/secrets.ts'
import { CaseReceipt, CaseStatus, PrivacyInput, ReportInput, caseStatusInput } from '../../schemas/cases.ts'
import { insertCase, type CaseKind, type CaseRow } from '../../store/cases/write.ts'
import { findCase } from '../../store/cases/read.ts'
import { nextId } from '../../store/counters.ts'

const CASES_PER_MINUTE = 20
const RECEIPT_NOTE =
  'Keep receipt_key private: it is shown once and is needed, with case_id, to read the decision. It cannot be recovered.'

interface CaseFields {
  request_type: string
  target_type: string | null
  target_id: string | null
  text: string | null
  contact: string | null
}

/** Intake shared by reports and privacy requests: a case, a hashed receipt, a reference-only alert. */
async function openCase(ctx: WriteContext, kind: CaseKind, fields: CaseFields) {
  await enforceRate(ctx, 'case', CASES_PER_MINUTE, 60)
  const caseId = ctx.random.uuid()
  const receiptKey = newSecret(ctx.random, 'receipt')
  await insertCase(ctx.db, {
    id: caseId,
    seq: await nextId(ctx.db, 'cases'),
    kind,
    receipt_hash: ctx.services.secrets.digest(receiptKey),
    status: 'received',
    ...fields,
    decision: null,
    decision_note: null,
    created_at: iso(ctx.now),
    decided_at: null,
  })
  await alertOperators(ctx, kind, caseId)
  return { case_id: caseId, receipt_key: receiptKey, note: RECEIPT_NOTE }
}

/**
 * An unknown case and a wrong receipt answer alike, so case ids cannot be probed; both count as a
 * guess in the caller's abuse bucket (core/key-guard.ts).
 */
async function readCase(ctx: ActionContext, kind: CaseKind, caseId: string, receiptKey: string) {
  const row: CaseRow | undefined = await findCase(ctx.db, caseId, kind)
  if (!row || !ctx.services.secrets.matches(receiptKey, row.receipt_hash)) {
    throw new ServiceError('invalid_receipt', 'The case_id and receipt_key do not match a case.', { guess: true })
  }
  return {
    case_id: row.id,
    status: row.status as 'received' | 'decided',
    decision: row.decision,
    decision_note: row.decision_note,
    created_at: row.created_at,
    decided_at: row.decided_at,
  }
}

export const reportContent = defineAction({
  name: 'report_content',
  summary: 'Report a contribution, note, feedback or agent to the operators; no key needed.',
  description: 'good_faith must be true. Keep the returned receipt_key private; read the decision with report_status.',
  http: { method: 'POST', path: '/api/clearing' },
  auth: 'public',
  effect: 'write',
  trim: ['target_id', 'explanation', 'contact'],
  input: ReportInput,
  output: CaseReceipt,
  errors: { rate_limited: 429 },
  examples: [
    (refs) => ({
      target_type: 'contribution',
      target_id: String(refs.contributionId),
      category: 'other',
      explanation: 'an example report',
      good_faith: true,
    }),
  ],
  mcp: { title: 'Report content', toolset: 'reports' },
  handler: (ctx, input) =>
    openCase(ctx, 'report', {
      request_type: input.category,
      target_type: input.target_type,
      target_id: input.target_id,
      text: input.explanation,
      contact: input.contact ?? null,
    }),
})

export const reportStatus = defineAction({
  name: 'report_status',
  summary: 'Read the status and decision of your report with case_id and receipt_key.',
  http: { method: 'POST', path: '/api/clearing' },
  auth: 'public',
  effect: 'read',
  input: caseStatusInput('report_status'),
  output: CaseStatus,
  errors: { invalid_receipt: 403 },
  examples: [(refs) => ({ case_id: refs.caseId, receipt_key: refs.receiptKey })],
  mcp: { title: 'Read a report case', toolset: 'reports' },
  handler: (ctx, input) => readCase(ctx, 'report', input.case_id, input.receipt_key),
})

export const privacyRequest = defineAction({
  name: 'privacy_request',
  summary: 'Ask the operators for access, correction, deletion, objection or an appeal about personal data.',
  description: 'authority must be true. Keep the returned receipt_key private; read the outcome with privacy_status.',
  http: { method: 'POST', path: '/api/clearing' },
  auth: 'public',
  effect: 'write',
  trim: ['record_ref', 'contact'],
  input: PrivacyInput,
  output: CaseReceipt,
  errors: { rate_limited: 429 },
  examples: [() => ({ kind: 'access', record_ref: 'my profile', contact: 'me@example.org', authority: true })],
  mcp: { title: 'Make a privacy request', toolset: 'reports' },
  handler: (ctx, input) =>
    openCase(ctx, 'privacy', {
      request_type: input.kind,
      target_type: null,
      target_id: input.record_ref,
      text: null,
      contact: input.contact,
    }),
})

export const privacyStatus = defineAction({
  name: 'privacy_status',
  summary: 'Read the status and outcome of your privacy request with case_id and receipt_key.',
  http: { method: 'POST', path: '/api/clearing' },
  auth: 'public',
  effect: 'read',
  input: caseStatusInput('privacy_status'),
  output: CaseStatus,
  errors: { invalid_receipt: 403 },
  examples: [(refs) => ({ case_id: refs.privacyCaseId, receipt_key: refs.privacyReceiptKey })],
  mcp: { title: 'Read a privacy request', toolset: 'reports' },
  handler: (ctx, input) => readCase(ctx, 'privacy', input.case_id, input.receipt_key),
})
