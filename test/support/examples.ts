import { randomUUID } from 'node:crypto'
import { registry } from '../../src/app.ts'
import type { RegisteredAction } from '../../src/core/registry.ts'
import { freshKey, post, type Reply, type TestServer } from './harness.ts'
import { record } from './learning.ts'
import { OPERATOR_KEY, findDraft, op, postDraft, submit } from './operator.ts'
import { makeWalletFixture, TIP_ADDRESS, type WalletFixture } from './wallet.ts'

/**
 * Records every example can point at, made through the API on a fresh server. `caller` is the
 * participant whose key the examples use; the matrices pause, suspend or revoke it.
 */
export interface Fixture {
  caller: { id: string; key: string }
  other: { id: string; key: string }
  /** A root contribution by `other` (appreciable by the caller, a reply target, a note source). */
  contributionId: number
  memoryId: string
  feedbackId: number
  caseId: string
  receiptKey: string
  privacyCaseId: string
  privacyReceiptKey: string
  draftId: string
  publicRef: string
  /** A root contribution by the caller (the caller decides its learning consent). */
  callerContributionId: number
  /** A learning record of the caller (version 1), and one of `other` for the operator reviews. */
  learningRecordId: string
  reviewRecordId: string
  /** A signed-in wallet with orders in every state the examples need (against the shared fakes). */
  wallet: WalletFixture
}

/**
 * A fixture with stand-in values, for knowing an example's shape (its fields) before any server runs:
 * participants are a placeholder identity, every other field the number 1.
 */
export function placeholderFixture(): Fixture {
  const who = { id: '00000000-0000-4000-8000-000000000000', key: 'clr_placeholder' }
  return new Proxy({} as Fixture, { get: (_, field) => (field === 'caller' || field === 'other' ? who : 1) })
}

export async function makeFixture(t: TestServer): Promise<Fixture> {
  const caller = await t.join('Caller', 'matrix-model')
  const other = await t.join('Other', 'matrix-model')
  const root = await post(t, other.key, { content: 'a root for the matrices' })
  const note = await t.act<{ memory_id: string }>('save_shared_memory', {
    key: other.key,
    expected_version: 0,
    title: 'A note',
    kind: 'story',
    content: 'note text',
    source_ids: [root.body.id],
    reason: 'first',
    client_id: randomUUID(),
  })
  const feedback = await t.act<{ id: number }>('feedback', {
    key: other.key,
    category: 'suggestion',
    content: 'feedback text',
    client_id: randomUUID(),
  })
  const report = await t.act<{ case_id: string; receipt_key: string }>('report_content', {
    target_type: 'contribution',
    target_id: String(root.body.id),
    category: 'spam',
    explanation: 'an example report',
    good_faith: true,
  })
  const privacy = await t.act<{ case_id: string; receipt_key: string }>('privacy_request', {
    kind: 'access',
    record_ref: 'my profile',
    contact: 'me@example.org',
    authority: true,
  })
  const draft = postDraft({ public_status: true })
  const sent = await submit<{ public_ref: string }>(t, draft)
  const pending = await findDraft(t, String(draft.client_id))
  const own = await post(t, caller.key, { content: 'a root by the caller' })
  const record = await t.post<{ record_id: string }>('/api/learning', learningRecord(caller.key, root.body.id))
  const reviewed = await t.post<{ record_id: string }>('/api/learning', learningRecord(other.key, root.body.id))
  // The caller's own post must not make the contribute example wait out the 30-second rule.
  t.clock.advance(31)
  const wallet = await makeWalletFixture(t, async (orderId) => {
    const delivered = await op(t, 'deliver_order', { order_id: orderId, delivery: 'the delivered text' })
    if (delivered.status !== 200) throw new Error(`fixture: ${delivered.status} ${JSON.stringify(delivered.body)}`)
  })
  for (const reply of [root, note, feedback, report, privacy, sent, own, record, reviewed]) {
    if (reply.status !== 200) throw new Error(`fixture: ${reply.status} ${JSON.stringify(reply.body)}`)
  }
  return {
    caller,
    other,
    contributionId: root.body.id,
    memoryId: note.body.memory_id,
    feedbackId: feedback.body.id,
    caseId: report.body.case_id,
    receiptKey: report.body.receipt_key,
    privacyCaseId: privacy.body.case_id,
    privacyReceiptKey: privacy.body.receipt_key,
    draftId: pending.draft_id,
    publicRef: sent.body.public_ref,
    callerContributionId: own.body.id,
    learningRecordId: record.body.record_id,
    reviewRecordId: reviewed.body.record_id,
    wallet,
  }
}

/** A valid save_learning body creating a record that draws on one contribution. */
function learningRecord(key: string, sourceId: number): Record<string, unknown> {
  return { action: 'save_learning', ...record(key, [sourceId]) }
}

type Input = Record<string, unknown>

/**
 * One valid input per registry action (without `action`), accepted by the action's schema and, for
 * the caller in good standing, by its handler. @NOTE every new action adds its example here: the
 * guard in test/api/registry-matrix.test.ts fails while one is missing.
 */
export const EXAMPLES: Record<string, (f: Fixture) => Input> = {
  join: () => ({ name: 'Example', model: 'example-model' }),
  proof_challenge: () => ({ for: 'join' }),
  contribute: (f) => ({
    key: f.caller.key,
    room: 'connection',
    kind: 'conversation',
    content: 'an example contribution',
    client_id: randomUUID(),
    reply_to: f.contributionId,
  }),
  visit: (f) => ({ key: f.caller.key }),
  check_returns: (f) => ({ key: f.caller.key, thread_ids: [f.contributionId] }),
  rotate_key: (f) => ({ key: f.caller.key, new_key: freshKey() }),
  revoke_key: (f) => ({ key: f.caller.key }),
  pause: (f) => ({ key: f.caller.key }),
  resume: (f) => ({ key: f.caller.key }),
  read_descriptor: () => ({}),
  read_arrival: () => ({}),
  read_history: () => ({ after: 0 }),
  read_thread: (f) => ({ contribution_id: f.contributionId }),
  read_returns: (f) => ({ thread_ids: String(f.contributionId) }),
  save_shared_memory: (f) => ({
    key: f.caller.key,
    expected_version: 0,
    title: 'An example note',
    kind: 'observation',
    content: 'what the example saw',
    source_ids: [f.contributionId],
    reason: 'an example',
    client_id: randomUUID(),
  }),
  read_memory: (f) => ({ memory_id: f.memoryId }),
  feedback: (f) => ({
    key: f.caller.key,
    category: 'welcome',
    content: 'example feedback',
    client_id: randomUUID(),
    outcome: 'helped',
    fit: 4,
  }),
  read_feedback: () => ({ after: 0 }),
  review_feedback: (f) => ({
    review_key: OPERATOR_KEY,
    feedback_id: f.feedbackId,
    status: 'reviewed',
    response: 'read and considered',
    alignment: 'aligned',
    client_id: randomUUID(),
  }),
  appreciate: (f) => ({ key: f.caller.key, contribution_id: f.contributionId }),
  bookmark_history: (f) => ({ key: f.caller.key, contribution_cursor: 0, memory_cursor: 0, carry_context: 'notes' }),
  resume_history: (f) => ({ key: f.caller.key }),
  read_usage: () => ({}),
  read_policy: () => ({}),
  read_lessons: () => ({ after: 0 }),
  read_tip_jar: () => ({}),
  read_compute_jar: () => ({}),
  read_feed: () => ({ after: 0 }),
  read_connections: () => ({}),
  report_content: (f) => ({
    target_type: 'contribution',
    target_id: String(f.contributionId),
    category: 'other',
    explanation: 'an example report',
    good_faith: true,
  }),
  report_status: (f) => ({ case_id: f.caseId, receipt_key: f.receiptKey }),
  privacy_request: () => ({ kind: 'access', record_ref: 'my profile', contact: 'me@example.org', authority: true }),
  privacy_status: (f) => ({ case_id: f.privacyCaseId, receipt_key: f.privacyReceiptKey }),
  submit_draft: () => {
    const { action: _action, ...fields } = postDraft()
    return fields
  },
  read_drafts: () => ({ author: 'Keyless Kit' }),
  list_drafts: () => ({ operator_key: OPERATOR_KEY }),
  publish_draft: (f) => ({ operator_key: OPERATOR_KEY, draft_id: f.draftId }),
  reject_draft: (f) => ({ operator_key: OPERATOR_KEY, draft_id: f.draftId }),
  quarantine: (f) => ({
    operator_key: OPERATOR_KEY,
    target_type: 'contribution',
    target_id: f.contributionId,
    reason_code: 'spam',
    reason: 'example',
  }),
  release: (f) => ({
    operator_key: OPERATOR_KEY,
    target_type: 'contribution',
    target_id: f.contributionId,
    reason_code: 'spam',
    reason: 'x',
  }),
  suspend_participant: (f) => ({
    operator_key: OPERATOR_KEY,
    participant_id: f.other.id,
    reason_code: 'harassment',
    reason: 'example',
  }),
  reinstate_participant: (f) => ({
    operator_key: OPERATOR_KEY,
    participant_id: f.other.id,
    reason_code: 'other',
    reason: 'example',
  }),
  pause_writes: () => ({ operator_key: OPERATOR_KEY, reason_code: 'spam' }),
  resume_writes: () => ({ operator_key: OPERATOR_KEY, reason_code: 'other' }),
  set_provenance: (f) => ({ operator_key: OPERATOR_KEY, participant_id: f.other.id, provenance: 'independent' }),
  list_reports: () => ({ operator_key: OPERATOR_KEY }),
  decide_report: (f) => ({ operator_key: OPERATOR_KEY, case_id: f.caseId, decision: 'no_action' }),
  list_privacy_requests: () => ({ operator_key: OPERATOR_KEY }),
  decide_privacy_request: (f) => ({ operator_key: OPERATOR_KEY, case_id: f.privacyCaseId, decision: 'declined' }),
  run_maintenance: () => ({ operator_key: OPERATOR_KEY }),
  list_audit_log: () => ({ operator_key: OPERATOR_KEY }),
  read_moderation_ledger: () => ({ after: 0 }),
  read_chain: () => ({ chain: 'contributions', after: 0 }),
  read_signing_key: () => ({}),
  save_learning: (f) => record(f.caller.key, [f.contributionId]),
  learning_consent: (f) => ({
    key: f.caller.key,
    contribution_id: f.callerContributionId,
    purpose: 'memory',
    granted: true,
    authorized_rightsholder: true,
    terms_version: '2026-11-22',
  }),
  withdraw_learning: (f) => ({ key: f.caller.key, record_id: f.learningRecordId }),
  my_learning: (f) => ({ key: f.caller.key }),
  read_learning: () => ({ after: 0 }),
  read_learning_policy: () => ({}),
  list_learning: () => ({ operator_key: OPERATOR_KEY, review: 'pending' }),
  approve_learning: (f) => ({ operator_key: OPERATOR_KEY, record_id: f.reviewRecordId, version: 1 }),
  reject_learning: (f) => ({ operator_key: OPERATOR_KEY, record_id: f.reviewRecordId, reason: 'example' }),
  export_research: () => ({ operator_key: OPERATOR_KEY }),
  search: () => ({ q: 'root matrices', type: 'contribution', limit: 10 }),
  read_agent: (f) => ({ participant_id: f.other.id, after: 0 }),
  read_workshop: () => ({}),
  audit: () => ({
    record: {
      version: 1,
      requested_activity: 'investigate',
      observed_activity: 'investigate',
      evidence: [{ id: 'e1', status: 'inspected', locator: 'contribution 1', qualifiers: ['partial_check'], note: '' }],
      claims: [{ id: 'c1', text: 'a claim', evidence_ids: ['e1'], qualifiers: [], contradiction_ids: [] }],
      commitments: [{ id: 'k1', task: 'read it', status: 'done', receipt: 'contribution 2' }],
      note: '',
    },
  }),
  hidden_world: () => ({ power: 2, hours: 12, resolution: 0.01 }),
  governance_trial: () => ({ power: 1, hours: 6, resolution: 0.001 }),
  read_distribution: () => ({}),
  read_ledger_schema: () => ({}),
  analyze: () => ({
    ledger: {
      version: 1,
      unit: 'contributions',
      source: { kind: 'synthetic', description: 'an example' },
      entries: [
        { holder: 'a', amount: 3, category: 'x' },
        { holder: 'b', amount: 1 },
      ],
    },
  }),
  read_progress: () => ({}),
  read_invention: () => ({}),
  read_practice: () => ({}),
  run_pilot: () => ({ operator_key: OPERATOR_KEY }),
  list_memories: () => ({ after: 0 }),
  read_wallet_config: () => ({}),
  challenge: (f) => ({ address: f.wallet.address }),
  sign_in: (f) => ({ ...f.wallet.signed, cookie: true }),
  sign_out: (f) => ({ session_token: f.wallet.spareSession }),
  link_wallet: (f) => ({ key: f.caller.key, session_token: f.wallet.session }),
  unlink_wallet: (f) => ({ key: f.caller.key }),
  verify_tip: (f) => ({ tx_hash: f.wallet.chain.addTx({ to: TIP_ADDRESS }), session_token: f.wallet.session }),
  my_wallet: (f) => ({ session_token: f.wallet.session }),
  read_services: () => ({}),
  quote: () => ({ service_id: 'review' }),
  accept_agreement: (f) => ({ session_token: f.wallet.session, terms_version: f.wallet.termsVersion }),
  order: (f) => ({ session_token: f.wallet.session, service_id: 'review' }),
  // Without a PAYMENT-SIGNATURE: the order's 402 requirement again (a successful answer).
  pay: (f) => ({ session_token: f.wallet.session, order_id: f.wallet.orders.awaiting }),
  reconcile: (f) => ({ session_token: f.wallet.session, order_id: f.wallet.orders.awaiting }),
  acknowledge: (f) => ({ session_token: f.wallet.session, order_id: f.wallet.orders.delivered }),
  request_refund: (f) => ({
    session_token: f.wallet.session,
    order_id: f.wallet.orders.refundable,
    reason: 'not what I ordered',
  }),
  my_commerce: (f) => ({ session_token: f.wallet.session }),
  list_orders: () => ({ operator_key: OPERATOR_KEY }),
  deliver_order: (f) => ({ operator_key: OPERATOR_KEY, order_id: f.wallet.orders.paid, delivery: 'the review' }),
  refund_order: (f) => ({ operator_key: OPERATOR_KEY, order_id: f.wallet.orders.operatorRefund, note: 'refunded' }),
}

/** Further valid inputs of actions with more than one shape (each is checked like the main example). */
export const MORE_EXAMPLES: Record<string, Array<(f: Fixture) => Input>> = {
  submit_draft: [
    (f) => ({
      name: 'Keyless Kit',
      model: 'kit-1',
      participation_action: 'save_shared_memory',
      client_id: randomUUID(),
      approved_to_submit: true,
      expected_version: 0,
      title: 'A proposed note',
      kind: 'artifact',
      content: 'proposed note text',
      source_ids: [f.contributionId],
      reason: 'proposed',
      public_status: true,
    }),
    () => ({
      name: 'Keyless Kit',
      model: 'kit-1',
      participation_action: 'feedback',
      client_id: randomUUID(),
      approved_to_submit: true,
      category: 'suggestion',
      content: 'proposed feedback',
      outcome: 'mixed',
      fit: 3,
    }),
  ],
}

/** The main example and any further ones of an action. */
export function examples(name: string, f: Fixture): Input[] {
  return [example(name, f), ...(MORE_EXAMPLES[name] ?? []).map((make) => make(f))]
}

export function example(name: string, f: Fixture): Input {
  const make = EXAMPLES[name]
  if (!make) throw new Error(`no example input for ${name}: add one to test/support/examples.ts`)
  return make(f)
}

/** Calls a registry action the way a REST client would: GET with a query string, POST with a body. */
export function call<T = Record<string, unknown>>(
  t: TestServer,
  entry: RegisteredAction,
  input: Input,
): Promise<Reply<T>> {
  const { http, name } = entry.def
  if (http.method === 'POST') return t.post<T>(http.path, { action: name, ...input })
  const params = new URLSearchParams(http.view ? { view: http.view } : {})
  for (const [field, value] of Object.entries(input)) {
    params.set(field, typeof value === 'string' ? value : (JSON.stringify(value) ?? ''))
  }
  return t.get<T>(`${http.path}?${params}`)
}

export { op, registry }
