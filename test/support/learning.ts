import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import type { Reply, TestServer } from './harness.ts'
import { op } from './operator.ts'

export type ErrorBody = { error: { code: string; message: string; details?: Array<{ path: string }> } }
export type Saved = { record_id: string; version: number; duplicate: boolean }
export type PublicLesson = {
  id: number
  record_id: string
  version: number
  lesson: string | null
  quarantined: boolean
  moderation_id?: number
  name: string
  participant_id: string
}
export type Revision = { version: number; lesson: string; terms_version: string; source_ids: number[] }
export type PrivateRecord = {
  record_id: string
  seq: number
  version: number
  review: string
  lesson_id: number | null
  public: boolean
  exportable: boolean
  quarantined: boolean
  current: Revision
  revisions: Revision[]
  sources: Array<{ contribution_id: number; memory: string; research_training: string }>
}
export type Export = {
  manifest: {
    counts: { records: number; source_contributions: number }
    terms_versions: Array<{ terms_version: string | null; count: number }>
    consent_terms_versions: Array<{ terms_version: string | null; count: number }>
    next_cursor: number
    has_more: boolean
    policy_version: string
  }
  jsonl: string
  record_ids: string[]
  next_cursor: number
  has_more: boolean
}

/** A valid save_learning body (without action); override any field. */
export function record(
  key: string,
  sourceIds: number[],
  fields: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    key,
    expected_version: 0,
    source_ids: sourceIds,
    lesson: 'Short replies invite answers.',
    feedback: 'Long posts went unanswered.',
    revision: 'Wrote shorter posts.',
    outcome: 'More replies came.',
    memory_allowed: true,
    training_allowed: true,
    authorized_rightsholder: true,
    terms_version: '2026-11-22',
    client_id: randomUUID(),
    ...fields,
  }
}

/** POST /api/learning with {action, ...fields}. */
export function learn<T = Record<string, unknown>>(
  t: TestServer,
  action: string,
  fields: Record<string, unknown>,
): Promise<Reply<T>> {
  return t.post<T>('/api/learning', { action, ...fields })
}

export async function save(t: TestServer, body: Record<string, unknown>): Promise<Reply<Saved & ErrorBody>> {
  return learn<Saved & ErrorBody>(t, 'save_learning', body)
}

/** Saves and insists on success. */
export async function saved(t: TestServer, body: Record<string, unknown>): Promise<Saved> {
  const reply = await save(t, body)
  assert.equal(reply.status, 200, JSON.stringify(reply.body))
  return reply.body
}

export async function consent(
  t: TestServer,
  key: string,
  contributionId: number,
  purpose: 'memory' | 'research_training',
  granted: boolean,
): Promise<Reply<ErrorBody & Record<string, unknown>>> {
  return learn(t, 'learning_consent', { key, contribution_id: contributionId, purpose, granted })
}

export async function approve(t: TestServer, recordId: string, version = 1) {
  const reply = await op<{ lesson_id: number; public: boolean }>(t, 'approve_learning', {
    record_id: recordId,
    version,
  })
  assert.equal(reply.status, 200, JSON.stringify(reply.body))
  return reply.body
}

/**
 * Every public lesson, read page by page through both public reads; they must answer exactly the
 * same pages.
 */
export async function publicLessons(t: TestServer, limit = 200): Promise<PublicLesson[]> {
  const lessons: PublicLesson[] = []
  for (let after = 0; ;) {
    const params = new URLSearchParams({ after: String(after), limit: String(limit) })
    const viaLearning = await t.get<{ lessons: PublicLesson[]; next_cursor: number; has_more: boolean }>(
      `/api/learning?${params}`,
    )
    const viaClearing = await t.view<typeof viaLearning.body>('lessons', { after, limit })
    assert.equal(viaLearning.status, 200, JSON.stringify(viaLearning.body))
    assert.deepEqual(viaClearing.body, viaLearning.body, 'both public lesson reads answer the same')
    lessons.push(...viaLearning.body.lessons)
    if (!viaLearning.body.has_more) return lessons
    after = viaLearning.body.next_cursor
  }
}

/** Every record the research export holds now, page by page. */
export async function exportAll(t: TestServer, limit = 200): Promise<{ ids: string[]; pages: Export[] }> {
  const pages: Export[] = []
  for (let after = 0; ;) {
    const reply = await op<Export>(t, 'export_research', { after, limit })
    assert.equal(reply.status, 200, JSON.stringify(reply.body))
    pages.push(reply.body)
    if (!reply.body.has_more) return { ids: pages.flatMap((p) => p.record_ids), pages }
    after = reply.body.next_cursor
  }
}

/** The caller's records, every page. */
export async function mine(t: TestServer, key: string): Promise<PrivateRecord[]> {
  const records: PrivateRecord[] = []
  for (let after = 0; ;) {
    const reply = await learn<{ records: PrivateRecord[]; next_cursor: number; has_more: boolean }>(t, 'my_learning', {
      key,
      after,
      limit: 200,
    })
    assert.equal(reply.status, 200, JSON.stringify(reply.body))
    records.push(...reply.body.records)
    if (!reply.body.has_more) return records
    after = reply.body.next_cursor
  }
}
