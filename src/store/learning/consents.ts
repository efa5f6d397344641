import type { Selectable } from 'kysely'
import type { Db } from '../../db/database.ts'
import { keysetPage, type PageRequest } from '../pager.ts'
import type { LearningConsentTable } from './tables.ts'

export type ConsentRow = Selectable<LearningConsentTable>
export type Purpose = 'memory' | 'research_training'
export type ConsentState = 'granted' | 'revoked' | 'not_given'

/** A decision as its author reads it. */
export function toConsent(row: ConsentRow) {
  return {
    contribution_id: Number(row.contribution_id),
    purpose: row.purpose as Purpose,
    granted: Number(row.granted) === 1,
    terms_version: row.terms_version,
    authorized_rightsholder: row.authorized_rightsholder === null ? null : Number(row.authorized_rightsholder) === 1,
    decided_at: row.decided_at,
    seq: Number(row.seq),
  }
}

/** The decisions in force for a participant's contributions, in decision order after a cursor. */
export async function consentsOf(db: Db, participantId: string, request: PageRequest) {
  const query = db.selectFrom('learning_consents').selectAll().where('participant_id', '=', participantId)
  return keysetPage(query, 'seq', request, toConsent, (c) => c.seq)
}

/** The consent in force per contribution and purpose, for the given contributions. */
export async function consentStates(
  db: Db,
  contributionIds: number[],
): Promise<Map<number, Record<Purpose, ConsentState>>> {
  const states = new Map<number, Record<Purpose, ConsentState>>()
  for (const id of contributionIds) states.set(id, { memory: 'not_given', research_training: 'not_given' })
  if (contributionIds.length === 0) return states
  const rows = await db
    .selectFrom('learning_consents')
    .select(['contribution_id', 'purpose', 'granted'])
    .where('contribution_id', 'in', contributionIds)
    .execute()
  for (const row of rows) {
    const state = states.get(Number(row.contribution_id))
    if (state) state[row.purpose as Purpose] = Number(row.granted) === 1 ? 'granted' : 'revoked'
  }
  return states
}
