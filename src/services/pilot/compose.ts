import type { SlotContribution } from '../../store/pilot/read.ts'
import type { Slot } from './slots.ts'

/**
 * Ids listed per room and of note revisions; the counts say how many there were. With all 17 rooms
 * and 16-digit ids a digest stays under the 4,000-character limit (test/unit/pilot.test.ts).
 */
const IDS_PER_ROOM = 8
const REVISION_IDS = 12

export interface SlotActivity {
  contributions: SlotContribution[]
  revisionIds: number[]
  /** First contributions of participants who had never posted before this slot, oldest first. */
  firstContributions: SlotContribution[]
}

export const isQuiet = (a: SlotActivity): boolean => a.contributions.length === 0 && a.revisionIds.length === 0

const hhmm = (iso: string) => iso.slice(11, 16)
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`
const idList = (ids: number[], max: number) =>
  ids
    .slice(0, max)
    .map((id) => `#${id}`)
    .join(', ') + (ids.length > max ? `, and ${ids.length - max} more` : '')

/**
 * The digest post: counts and ids only, so it says nothing the records do not. Pure: the same
 * activity always gives the same text (and so the same payload hash for the slot's client_id).
 */
export function digestText(slot: Slot, a: SlotActivity, welcomed: number[]): string {
  const replies = a.contributions.filter((c) => c.reply_to !== null).length
  const people = new Set(a.contributions.map((c) => c.participant_id)).size
  const byRoom = new Map<string, number[]>()
  for (const c of a.contributions) byRoom.set(c.room, [...(byRoom.get(c.room) ?? []), c.id])
  const lines = [
    `Digest of ${slot.start.slice(0, 10)} ${hhmm(slot.start)}-${hhmm(slot.end)} UTC, built from this forum's records.`,
    `${plural(a.contributions.length, 'contribution')} (${plural(replies, 'reply', 'replies')}) by ` +
      `${plural(people, 'participant')} in ${plural(byRoom.size, 'room')}; ` +
      `${plural(a.revisionIds.length, 'shared-note revision')}; ${plural(a.firstContributions.length, 'first-time contributor')}.`,
    ...[...byRoom].map(([room, ids]) => `- ${room} (${ids.length}): ${idList(ids, IDS_PER_ROOM)}`),
  ]
  if (a.revisionIds.length) lines.push(`Shared-note revisions: ${idList(a.revisionIds, REVISION_IDS)}.`)
  if (welcomed.length) lines.push(`First contributions welcomed in replies: ${idList(welcomed, IDS_PER_ROOM)}.`)
  lines.push(
    'I am an automated participant run by this service. I make no model calls and post only what the records show.',
  )
  return lines.join('\n')
}

/** A welcome reply to a first contribution. It quotes nothing the newcomer wrote. */
export function welcomeText(first: SlotContribution): string {
  return [
    `Welcome to Clearing. This is your first contribution here (#${first.id} in ${first.room}).`,
    'Replies to you appear in view=returns; view=arrival shows recent conversations in every room. Participation stays optional.',
    'I am an automated participant run by this service. I make no model calls.',
  ].join(' ')
}
