import { postOf, writePost, type PostFields } from '../posting.ts'
import type { ServiceWriteContext } from '../context.ts'
import { iso } from '../clock.ts'
import { readFlag, WRITES_PAUSED } from '../../store/operator/flags.ts'
import { insertParticipantOnce } from '../../store/participants/write.ts'
import { drawnId, whenPublic, type DrawnId, type Publishing } from '../../store/publication.ts'
import {
  findSlot,
  firstContributionIds,
  slotContributions,
  slotPosts,
  slotRevisionIds,
  suspendedAmong,
} from '../../store/pilot/read.ts'
import { claimSlot, recordSlotOutcome } from '../../store/pilot/write.ts'
import type { Db } from '../../db/database.ts'
import { digestText, isQuiet, welcomeText, type SlotActivity } from './compose.ts'
import {
  clientIdPrefix,
  DIGEST_PARTICIPANT,
  DIGEST_ROOM,
  digestClientId,
  PILOT_IDS,
  PILOT_KIND,
  PILOT_PARTICIPANTS,
  PILOT_PROVENANCE,
  WELCOME_PARTICIPANT,
  welcomeClientId,
} from './identities.ts'
import { dueSlot, type Slot } from './slots.ts'

/** Welcome replies per slot at most; the digest counts every first-time contributor. */
export const MAX_WELCOMES = 25

export type PilotTrigger = 'schedule' | 'operator'
export type PilotOutcome = 'posted' | 'quiet' | 'already_done' | 'writes_paused'

export interface PilotPost {
  id: number
  participant_id: string
  role: 'digest' | 'welcome'
  reply_to: number | null
}

/** A post as the run wrote or found it: its id is public once the run's answer is (store/publication.ts). */
type DrawnPost = Omit<PilotPost, 'id'> & { id: DrawnId }

export interface PilotReport {
  slot_start: string
  slot_end: string
  outcome: PilotOutcome
  activity: { contributions: number; note_revisions: number; first_time_contributors: number } | null
  posts: PilotPost[]
}

/**
 * One pilot run, inside the caller's transaction: claim the due slot (the latest one that has
 * ended), read what happened in it, and post a digest plus welcome replies through the one write
 * path. A slot another run claimed is reported, not repeated; a quiet slot gets no post.
 */
export async function runPilot(ctx: ServiceWriteContext, trigger: PilotTrigger): Promise<Publishing<PilotReport>> {
  const slot = dueSlot(ctx.now)
  const report = (outcome: PilotOutcome, activity: PilotReport['activity'] = null, posts: DrawnPost[] = []) =>
    whenPublic(
      posts.map((post) => post.id),
      (publicId): PilotReport => ({
        slot_start: slot.start,
        slot_end: slot.end,
        outcome,
        activity,
        posts: posts.map((post) => ({ ...post, id: publicId(post.id) })),
      }),
    )
  // Paused writes stop the pilot too; the slot stays unclaimed, so a later run can still act for it.
  if ((await readFlag(ctx.db, WRITES_PAUSED)) === 'true') return report('writes_paused')
  const claimed = await claimSlot(ctx.db, {
    slot: slot.slot,
    slot_start: slot.start,
    slot_end: slot.end,
    trigger,
    outcome: 'claimed',
    contributions: 0,
    note_revisions: 0,
    first_time_contributors: 0,
    posts: 0,
    claimed_at: iso(ctx.now),
  })
  if (!claimed) return alreadyDone(ctx.db, slot, report)
  const activity = await slotActivity(ctx.db, slot)
  const figures = {
    contributions: activity.contributions.length,
    note_revisions: activity.revisionIds.length,
    first_time_contributors: activity.firstContributions.length,
  }
  if (isQuiet(activity)) {
    await recordSlotOutcome(ctx.db, slot.slot, { outcome: 'quiet', ...figures, posts: 0 })
    return report('quiet', figures)
  }
  const posts = await postForSlot(ctx, slot, activity)
  await recordSlotOutcome(ctx.db, slot.slot, { outcome: 'posted', ...figures, posts: posts.length })
  return report('posted', figures, posts)
}

async function postForSlot(ctx: ServiceWriteContext, slot: Slot, activity: SlotActivity): Promise<DrawnPost[]> {
  await ensurePilotParticipants(ctx)
  // An operator may suspend a hosted participant like any other: it then stays silent.
  const silenced = await suspendedAmong(ctx.db, PILOT_IDS)
  const welcomes = silenced.has(WELCOME_PARTICIPANT.id) ? [] : activity.firstContributions.slice(0, MAX_WELCOMES)
  const posts: DrawnPost[] = []
  if (!silenced.has(DIGEST_PARTICIPANT.id)) {
    const content = digestText(
      slot,
      activity,
      welcomes.map((c) => c.id),
    )
    const fields = { room: DIGEST_ROOM, kind: PILOT_KIND, content, client_id: digestClientId(slot.start) }
    posts.push({ ...(await postOnce(ctx, DIGEST_PARTICIPANT.id, fields)), role: 'digest' })
  }
  for (const first of welcomes) {
    const fields = {
      room: first.room,
      kind: PILOT_KIND,
      content: welcomeText(first),
      client_id: welcomeClientId(slot.start, first.id),
      reply_to: first.id,
    }
    posts.push({ ...(await postOnce(ctx, WELCOME_PARTICIPANT.id, fields)), role: 'welcome' })
  }
  return posts
}

/** The one write path, under the one idempotency rule (ids, threads and usage counters included). */
async function postOnce(
  ctx: ServiceWriteContext,
  participantId: string,
  fields: PostFields,
): Promise<Omit<DrawnPost, 'role'>> {
  const { id } = await writePost(ctx, postOf({ participantId, provenance: PILOT_PROVENANCE }, fields))
  return { id, participant_id: participantId, reply_to: fields.reply_to ?? null }
}

async function ensurePilotParticipants(ctx: ServiceWriteContext): Promise<void> {
  for (const p of PILOT_PARTICIPANTS) {
    await insertParticipantOnce(ctx.db, {
      ...p,
      status: 'active',
      suspended: 0,
      provenance: PILOT_PROVENANCE,
      created_at: iso(ctx.now),
    })
  }
}

/** What happened in a slot, from the records alone (the pilot's own posts left out). */
async function slotActivity(db: Db, slot: Slot): Promise<SlotActivity> {
  const contributions = await slotContributions(db, slot.start, slot.end, PILOT_IDS)
  const revisionIds = await slotRevisionIds(db, slot.start, slot.end)
  const authors = [...new Set(contributions.map((c) => c.participant_id))]
  const [firsts, suspended] = [await firstContributionIds(db, authors), await suspendedAmong(db, authors)]
  const inSlot = new Map(contributions.map((c) => [c.id, c]))
  const firstContributions = authors
    .filter((author) => !suspended.has(author))
    .flatMap((author) => {
      const first = inSlot.get(firsts.get(author) ?? 0)
      return first ? [first] : []
    })
    .sort((a, b) => a.id - b.id)
  return { contributions, revisionIds, firstContributions }
}

/** A slot another run claimed: its figures and the posts it made, read back from the records. */
async function alreadyDone(
  db: Db,
  slot: Slot,
  report: (outcome: PilotOutcome, activity: PilotReport['activity'], posts: DrawnPost[]) => Publishing<PilotReport>,
): Promise<Publishing<PilotReport>> {
  const row = await findSlot(db, slot.slot)
  const posts = await slotPosts(db, PILOT_IDS, clientIdPrefix(slot.start))
  const activity = row
    ? {
        contributions: Number(row.contributions),
        note_revisions: Number(row.note_revisions),
        first_time_contributors: Number(row.first_time_contributors),
      }
    : null
  return report(
    'already_done',
    activity,
    posts.map((p) => ({
      id: drawnId(p.id),
      participant_id: p.participant_id,
      role: p.participant_id === DIGEST_PARTICIPANT.id ? 'digest' : 'welcome',
      reply_to: p.reply_to,
    })),
  )
}
