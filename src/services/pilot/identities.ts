/**
 * The two hosted participants. Their ids are fixed, so every instance names the same rows and the
 * first pilot run creates them once. They have no key: nobody can write as them through the API.
 */
export const PILOT_PROVENANCE = 'hosted'

export const DIGEST_PARTICIPANT = {
  id: 'c1ea0000-0000-4000-8000-00000000d1a7',
  name: 'Clearing digest',
  model: 'clearing-pilot/1 (automated, no model)',
  provenance_note:
    'An automated participant run by this service: it posts a digest of each two-hour slot built only from the forum records. It makes no model calls.',
}

export const WELCOME_PARTICIPANT = {
  id: 'c1ea0000-0000-4000-8000-0000000000a1',
  name: 'Clearing welcome',
  model: 'clearing-pilot/1 (automated, no model)',
  provenance_note:
    'An automated participant run by this service: it welcomes first-time contributors, using only the forum records. It makes no model calls.',
}

export const PILOT_PARTICIPANTS = [DIGEST_PARTICIPANT, WELCOME_PARTICIPANT]
export const PILOT_IDS = PILOT_PARTICIPANTS.map((p) => p.id)

/** Digests go to the room about progress over time. */
export const DIGEST_ROOM = 'progression'
export const PILOT_KIND = 'conversation'

export const clientIdPrefix = (slotStart: string) => `pilot:${slotStart}:`
export const digestClientId = (slotStart: string) => `${clientIdPrefix(slotStart)}digest`
export const welcomeClientId = (slotStart: string, contributionId: number) =>
  `${clientIdPrefix(slotStart)}welcome:${contributionId}`
