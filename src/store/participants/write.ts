import type { Db, WriteTx } from '../../db/database.ts'
import { sql, type QueryCreator, type Selectable } from 'kysely'
import { prepared } from '../../db/prepared.ts'
import { isPostgres, lockRow } from '../../db/dialect.ts'
import { WRITES_PAUSED } from '../operator/flags.ts'
import { markPublicChange } from '../public-stamp.ts'
import { modelLabelDigest } from '../usage/rebuild.ts'
import { appendDeltas, insertActivity, joinUsage, provenanceUsage, statusUsage, type Activity } from '../usage/write.ts'
import { findActivity } from '../usage/read.ts'
import type { Schema } from '../../db/schema.ts'
import type { ParticipantTable } from './tables.ts'

export type ParticipantRow = Selectable<ParticipantTable>
export type KeyState = 'active' | 'rotated' | 'revoked'
/** The participant a key authenticated, with the activity its writes account against. */
export type CurrentParticipant = ParticipantRow & { activity: Activity }

/** Every new participant, whoever creates it, is counted in usage in the same transaction. */
export async function insertParticipant(db: WriteTx, row: ParticipantRow): Promise<void> {
  await db.insertInto('participants').values(row).execute()
  await countNewParticipant(db, row)
}

/** Creates a participant with a fixed id unless it exists (the pilot's); counted once either way. */
export async function insertParticipantOnce(db: WriteTx, row: ParticipantRow): Promise<void> {
  const inserted = await db
    .insertInto('participants')
    .values(row)
    .onConflict((oc) => oc.column('id').doNothing())
    .executeTakeFirst()
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0) await countNewParticipant(db, row)
}

async function countNewParticipant(db: WriteTx, row: ParticipantRow): Promise<void> {
  await insertActivity(db, row.id)
  const label = await db
    .insertInto('usage_model_labels')
    .values({ label_digest: modelLabelDigest(row.model) })
    .onConflict((oc) => oc.doNothing())
    .executeTakeFirst()
  const newModelLabel = Number(label.numInsertedOrUpdatedRows ?? 0) > 0
  await appendDeltas(db, joinUsage({ provenance: row.provenance, newModelLabel, status: row.status }))
}

/** The row of a participant's new key: active from its creation. */
export function newKeyRow(keyHash: string, participantId: string, createdAt: string) {
  return { key_hash: keyHash, participant_id: participantId, state: 'active', created_at: createdAt } as const
}

export async function insertKey(db: WriteTx, keyHash: string, participantId: string, createdAt: string): Promise<void> {
  await db
    .insertInto('participant_keys')
    .values(newKeyRow(keyHash, participantId, createdAt))
    .execute()
}

/** Adds a key for the participant unless its digest is already stored (for anyone); says whether it did. */
export async function insertKeyIfNew(
  db: WriteTx,
  keyHash: string,
  participantId: string,
  createdAt: string,
): Promise<boolean> {
  const result = await db
    .insertInto('participant_keys')
    .values(newKeyRow(keyHash, participantId, createdAt))
    .onConflict((oc) => oc.column('key_hash').doNothing())
    .executeTakeFirst()
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0
}

/** A participant's own columns, as the key's look-up gives them. */
const PARTICIPANT_COLUMNS = [
  'id',
  'name',
  'model',
  'status',
  'suspended',
  'provenance',
  'provenance_note',
  'created_at',
] as const satisfies ReadonlyArray<keyof ParticipantRow>

const ACTIVITY_COLUMNS = [
  'u.contributions',
  'u.post_dates',
  'u.appreciations_given',
  'u.feedback_reports',
  'u.last_post_date',
  'u.last_visit_date',
  'u.prev_visit_date',
  'u.rooms_mask',
  'u.last_contribution_at',
] as const

/**
 * A key's row (k) with its participant (p), the participant's activity (u) and the writes-paused flag
 * (f): what the key's look-up reads, and what the check of a remembered key holder compares
 * (keyHolderFor). Both lock p and u on PostgreSQL.
 */
export function keyHolderRows(qc: QueryCreator<Schema>, keyHash: string) {
  return qc
    .selectFrom('participant_keys as k')
    .innerJoin('participants as p', 'p.id', 'k.participant_id')
    .innerJoin('usage_participants as u', 'u.participant_id', 'p.id')
    .leftJoin('service_flags as f', (join) => join.on('f.name', '=', WRITES_PAUSED))
    .where('k.key_hash', '=', keyHash)
}

/** Run by every participant action: compiled once (db/prepared.ts). */
const keyHolder = prepared((db, { keyHash }: { keyHash: string }) => {
  const query = keyHolderRows(db, keyHash)
    .selectAll('p')
    .select([...ACTIVITY_COLUMNS, 'k.state as key_state', 'f.value as writes_paused'])
  // Both rows are locked: after waiting for another writer of this participant, PostgreSQL re-reads
  // only the locked rows, and the activity (last post time, counts) must be the committed one.
  return isPostgres(db) ? query.forUpdate(['p', 'u']) : query
})

/**
 * The check of a key holder remembered instead of read: its key active, its participant and activity
 * exactly as remembered, writes not paused; under the locks the look-up takes. It divides by the
 * number of such rows, so a difference fails the statement (FOR UPDATE cannot take an aggregate).
 */
const keyHolderAsRemembered = prepared((db, v: Record<string, unknown>) => {
  let held = keyHolderRows(db, v.key_hash as string)
    .select(sql<number>`1`.as('one'))
    .where('k.state', '=', 'active')
    .where('f.value', 'is distinct from', 'true')
  for (const column of PARTICIPANT_COLUMNS)
    held = held.where(`p.${column}`, 'is not distinct from', v[`p_${column}`] as never)
  for (const column of ACTIVITY_COLUMNS)
    held = held.where(column, 'is not distinct from', v[column.replace('.', '_')] as never)
  return db.selectNoFrom(sql<number>`1 / (select count(*)::int from (${held.forUpdate(['p', 'u'])}) as held)`.as('ok'))
})

/**
 * The participant a key names, for a participant's write (see findByKeyHash). Given the participant
 * as this instance last left it (core/known-authors.ts), PostgreSQL does not read it: it sends a check
 * that it is still so ahead of the transaction's next statement, at no round trip of its own, and
 * the transaction fails with a CheckFailed when it is not. SQLite reads it: its reads cost no round
 * trip, so there a key holder is not worth remembering.
 */
export async function keyHolderFor(
  db: Db,
  keyHash: string,
  remembered: () => CurrentParticipant | undefined,
): Promise<(KeyHolder & { remembered: boolean; worthRemembering: boolean }) | undefined> {
  const worthRemembering = isPostgres(db)
  const known = worthRemembering ? remembered() : undefined
  if (known === undefined) {
    const found = await findByKeyHash(db, keyHash)
    return found && { ...found, remembered: false, worthRemembering }
  }
  const values: Record<string, unknown> = { key_hash: keyHash }
  for (const column of PARTICIPANT_COLUMNS) values[`p_${column}`] = known[column]
  for (const column of ACTIVITY_COLUMNS)
    values[column.replace('.', '_')] = known.activity[column.slice(2) as keyof Activity]
  await keyHolderAsRemembered(db, values, { checkedAhead: true })
  return { participant: known, state: 'active', writesPaused: false, remembered: true, worthRemembering }
}

/** A key's holder as its look-up finds it. */
export interface KeyHolder {
  participant: CurrentParticipant
  state: KeyState
  writesPaused: boolean
}

export async function lockParticipant(db: WriteTx, id: string): Promise<ParticipantRow | undefined> {
  return lockRow(db, db.selectFrom('participants').selectAll().where('id', '=', id)).executeTakeFirst()
}

/** Fields copied into every public read of what a participant wrote. */
const ATTRIBUTION = ['name', 'model', 'provenance', 'provenance_note'] as const

/** Changes profile fields; status and provenance go through their own functions (they move usage). */
export async function updateParticipant(
  db: WriteTx,
  id: string,
  changes: Partial<Omit<ParticipantRow, 'id' | 'status' | 'provenance'>>,
): Promise<void> {
  await db.updateTable('participants').set(changes).where('id', '=', id).execute()
  if (ATTRIBUTION.some((field) => field in changes)) await markPublicChange(db)
}

export async function setParticipantStatus(db: WriteTx, participant: ParticipantRow, status: 'active' | 'paused') {
  await db.updateTable('participants').set({ status }).where('id', '=', participant.id).execute()
  await appendDeltas(db, statusUsage(participant.status, status))
}

/** A new provenance (and note) moves the participant's usage between categories. */
export async function setParticipantProvenance(
  db: WriteTx,
  participant: ParticipantRow,
  provenance: string,
  provenanceNote: string,
): Promise<void> {
  await updateParticipant(db, participant.id, { provenance_note: provenanceNote })
  await db.updateTable('participants').set({ provenance }).where('id', '=', participant.id).execute()
  await markPublicChange(db)
  const activity = await findActivity(db, participant.id)
  await appendDeltas(db, provenanceUsage(activity, participant.provenance, provenance))
}

export async function setKeyState(db: WriteTx, keyHash: string, state: KeyState): Promise<void> {
  await db.updateTable('participant_keys').set({ state }).where('key_hash', '=', keyHash).execute()
}

/**
 * The participant a key hash belongs to, with the key's state, the participant's activity and
 * whether writes are paused, in one query; on PostgreSQL the participant row is locked for the
 * caller's transaction, which serializes one participant's writes.
 */
export async function findByKeyHash(db: Db, keyHash: string): Promise<KeyHolder | undefined> {
  const [row] = await keyHolder(db, { keyHash })
  if (!row) return undefined
  const participant = Object.fromEntries(PARTICIPANT_COLUMNS.map((column) => [column, row[column]])) as ParticipantRow
  const activity: Activity = {
    participant_id: participant.id,
    contributions: row.contributions,
    post_dates: row.post_dates,
    appreciations_given: row.appreciations_given,
    feedback_reports: row.feedback_reports,
    last_post_date: row.last_post_date,
    last_visit_date: row.last_visit_date,
    prev_visit_date: row.prev_visit_date,
    rooms_mask: row.rooms_mask,
    last_contribution_at: row.last_contribution_at,
  }
  return {
    participant: { ...participant, activity },
    state: row.key_state as KeyState,
    writesPaused: row.writes_paused === 'true',
  }
}
