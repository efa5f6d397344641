import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { LIMITS } from '../../src/schemas/common.ts'
import { digestText, isQuiet, welcomeText, type SlotActivity } from '../../src/services/pilot/compose.ts'
import { digestClientId, welcomeClientId } from '../../src/services/pilot/identities.ts'
import { dueSlot, slotAt } from '../../src/services/pilot/slots.ts'
import { ROOM_IDS } from '../../src/schemas/rooms.ts'
import type { SlotContribution } from '../../src/store/pilot/read.ts'

const c = (
  id: number,
  room = 'connection',
  participant = `p${id}`,
  replyTo: number | null = null,
): SlotContribution => ({
  id,
  participant_id: participant,
  room,
  reply_to: replyTo,
})

describe('pilot slots', () => {
  test('UTC two-hour slots; the due slot is the latest that ended at least a minute ago', () => {
    assert.deepEqual(slotAt(0), { slot: 0, start: '1970-01-01T00:00:00.000Z', end: '1970-01-01T02:00:00.000Z' })
    const due = (at: string) => dueSlot(new Date(at)).start
    assert.equal(due('2026-05-01T10:01:00.000Z'), '2026-05-01T08:00:00.000Z')
    assert.equal(due('2026-05-01T11:59:59.999Z'), '2026-05-01T08:00:00.000Z')
    assert.equal(due('2026-05-01T10:00:59.999Z'), '2026-05-01T06:00:00.000Z', 'posts of 08-10 are still settling')
    assert.equal(due('2026-05-02T00:30:00.000Z'), '2026-05-01T22:00:00.000Z')
  })

  test('client ids are derived from the slot and fit the client_id limit', () => {
    const start = slotAt(2_000_000).start
    assert.equal(digestClientId(start), `pilot:${start}:digest`)
    assert.ok(welcomeClientId(start, Number.MAX_SAFE_INTEGER).length <= LIMITS.client_id)
  })
})

describe('pilot posts', () => {
  const slot = slotAt(Math.floor(Date.parse('2026-05-01T08:00:00Z') / 7_200_000))

  test('a digest names counts and ids, and nothing anyone wrote', () => {
    const activity: SlotActivity = {
      contributions: [c(10, 'invention', 'a'), c(11, 'invention', 'b', 10), c(12, 'humor', 'a')],
      revisionIds: [4],
      firstContributions: [c(11, 'invention', 'b', 10)],
    }
    const text = digestText(slot, activity, [11])
    assert.equal(
      text,
      [
        "Digest of 2026-05-01 08:00-10:00 UTC, built from this forum's records.",
        '3 contributions (1 reply) by 2 participants in 2 rooms; 1 shared-note revision; 1 first-time contributor.',
        '- invention (2): #10, #11',
        '- humor (1): #12',
        'Shared-note revisions: #4.',
        'First contributions welcomed in replies: #11.',
        'I am an automated participant run by this service. I make no model calls and post only what the records show.',
      ].join('\n'),
    )
    assert.equal(digestText(slot, activity, [11]), text, 'the same activity gives the same text')
    assert.match(
      welcomeText(c(11, 'invention')),
      /^Welcome to Clearing\. This is your first contribution here \(#11 in invention\)/,
    )
  })

  test('the busiest slot (every room, 16-digit ids) still gives a digest within the length limit', () => {
    const big = Number.MAX_SAFE_INTEGER - 100_000
    const contributions = ROOM_IDS.flatMap((room, r) =>
      Array.from({ length: 300 }, (_, i) => c(big + r * 1000 + i, room)),
    )
    const activity: SlotActivity = {
      contributions,
      revisionIds: Array.from({ length: 20 }, (_, i) => big + 50_000 + i),
      firstContributions: contributions,
    }
    const text = digestText(
      slot,
      activity,
      contributions.slice(0, 25).map((x) => x.id),
    )
    assert.ok(text.length <= LIMITS.content, `${text.length} characters`)
    assert.match(text, /5100 contributions/)
    assert.match(text, new RegExp(`- ${ROOM_IDS[0]} \\(300\\)`))
  })

  test('a slot is quiet when it has neither contributions nor note revisions', () => {
    assert.equal(isQuiet({ contributions: [], revisionIds: [], firstContributions: [] }), true)
    assert.equal(isQuiet({ contributions: [], revisionIds: [1], firstContributions: [] }), false)
  })
})
