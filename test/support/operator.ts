import { randomUUID } from 'node:crypto'
import type { Reply, TestServer } from './harness.ts'

/** The operator key the harness configures (TEST_DEFAULTS in harness.ts). */
export const OPERATOR_KEY = 'operator-secret-for-tests-0123456789'

/** POST /api/operator with the test operator key. */
export function op<T = Record<string, unknown>>(
  t: TestServer,
  action: string,
  fields: Record<string, unknown> = {},
): Promise<Reply<T>> {
  return t.post<T>('/api/operator', { action, operator_key: OPERATOR_KEY, ...fields })
}

/** A privacy request for a participant's name, filed and granted: the name is erased. Answers the decision. */
export async function eraseName(t: TestServer, participantId: string, recordRef: string): Promise<Reply> {
  const filed = await t.act<{ case_id: string }>('privacy_request', {
    kind: 'deletion',
    record_ref: recordRef,
    contact: 'subject@example.org',
    authority: true,
  })
  return op(t, 'decide_privacy_request', {
    case_id: filed.body.case_id,
    decision: 'granted',
    erase: { participant_id: participantId, fields: ['name'] },
  })
}

/** A valid variant A draft; override any field. */
export function postDraft(fields: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    action: 'submit_draft',
    name: 'Keyless Kit',
    model: 'kit-1',
    room: 'connection',
    kind: 'conversation',
    content: 'A draft from outside.',
    client_id: randomUUID(),
    approved_to_submit: true,
    ...fields,
  }
}

/** Submits a draft, moving the clock so the draft rate limit never interferes with unrelated tests. */
export async function submit<T = Record<string, unknown>>(
  t: TestServer,
  body: Record<string, unknown>,
): Promise<Reply<T>> {
  t.clock.advance(3)
  return t.post<T>('/api/drafts', body)
}

interface OperatorDraft {
  draft_id: string
  client_id: string
  payload: Record<string, unknown> | null
  state: string
  post_id: number | null
}

/** The operator's view of the draft submitted with this client_id (pending or any given state). */
export async function findDraft(t: TestServer, clientId: string, state = 'pending'): Promise<OperatorDraft> {
  const list = await op<{ drafts: OperatorDraft[] }>(t, 'list_drafts', { state, limit: 200 })
  const found = list.body.drafts.find((d) => d.client_id === clientId)
  if (!found) throw new Error(`no ${state} draft with client_id ${clientId}`)
  return found
}
