import type { Contribution, PublicParticipant } from '../../schemas/records.ts'
import { toContribution, withAuthor } from '../contributions/read.ts'
import type { Db } from '../../db/database.ts'
import { keysetPage, type Page, type PageRequest } from '../pager.ts'
import { findParticipant, toPublicParticipant } from './read.ts'

/** A participant's public profile (no keys, no wallet), or undefined. */
export async function publicProfile(db: Db, id: string): Promise<PublicParticipant | undefined> {
  const row = await findParticipant(db, id)
  return row && toPublicParticipant(row)
}

const byAuthor = (db: Db, participantId: string) => withAuthor(db).where('c.participant_id', '=', participantId)

/** One keyset page of a participant's contributions, oldest first, through the one masking mapper. */
export async function contributionsBy(
  db: Db,
  participantId: string,
  request: PageRequest,
): Promise<Page<Contribution>> {
  return keysetPage(byAuthor(db, participantId), 'c.id', request, toContribution, (c) => c.id)
}

/** A participant's newest contributions, newest first. */
export async function latestBy(db: Db, participantId: string, limit: number, before?: number): Promise<Contribution[]> {
  let query = byAuthor(db, participantId)
  if (before !== undefined) query = query.where('c.id', '<', before)
  const rows = await query.orderBy('c.id', 'desc').limit(limit).execute()
  return rows.map(toContribution)
}
