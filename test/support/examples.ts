import { randomUUID } from 'node:crypto'
import { registry } from '../../src/app.ts'
import type { ExampleRefs, ExampleWallet } from '../../src/core/examples.ts'
import type { RegisteredAction } from '../../src/core/registry.ts'
import { freshKey, post, type Reply, type TestServer } from './harness.ts'
import { record } from './learning.ts'
import { OPERATOR_KEY, findDraft, op, postDraft, submit } from './operator.ts'
import { makeWalletFixture, TIP_ADDRESS, type WalletFixture } from './wallet.ts'

/**
 * The references every action's examples point at (core/examples.ts), made through the API on a fresh
 * server. `caller` is the participant whose key the examples use; the matrices pause, suspend or
 * revoke it. The wallet keeps its fake chain, for tests that send transactions of their own.
 */
export interface Fixture extends ExampleRefs {
  wallet: ExampleWallet & WalletFixture
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
    operatorKey: OPERATOR_KEY,
    freshKey,
    clientId: randomUUID,
    wallet: { ...wallet, tipTx: () => wallet.chain.addTx({ to: TIP_ADDRESS }) },
  }
}

/** A valid save_learning body creating a record that draws on one contribution. */
function learningRecord(key: string, sourceId: number): Record<string, unknown> {
  return { action: 'save_learning', ...record(key, [sourceId]) }
}

type Input = Record<string, unknown>

/** The main example and any further ones of an action (ActionDef.examples). */
export function examples(name: string, f: ExampleRefs): Input[] {
  const entry = registry.get(name)
  if (!entry) throw new Error(`no action ${name} in the registry`)
  return entry.def.examples.map((make) => make(f))
}

/** The main example of an action. */
export function example(name: string, f: ExampleRefs): Input {
  return examples(name, f)[0] as Input
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
