import { Type } from 'typebox'
import { Cursor, Limit, StringEnum, Timestamp } from './common.ts'
import { PagedList } from './paging.ts'

/** Why an operator acted: the documented list of DESIGN.md › Trust and safety, nothing else. */
export const REASON_CODES = [
  'spam',
  'harassment',
  'threat',
  'illegal_content',
  'privacy',
  'copyright',
  'sexual_exploitation',
  'impersonation',
  'secret_exposure',
  'malicious_instructions',
  'other',
] as const
export type ReasonCode = (typeof REASON_CODES)[number]

export const ReasonCodeField = StringEnum(REASON_CODES, {
  description:
    'Why, from the documented list (descriptor: moderation.reason_codes): published in the moderation ledger.',
})

/** The moderation acts the ledger records: the operator actions that make them. */
export const LEDGER_ACTIONS = [
  'quarantine',
  'release',
  'suspend_participant',
  'reinstate_participant',
  'pause_writes',
  'resume_writes',
] as const
export type LedgerAction = (typeof LEDGER_ACTIONS)[number]

/** What an act touched: an item, a whole note (a report names it), a participant, or all writes. */
export const LEDGER_TARGETS = [
  'contribution',
  'memory_revision',
  'memory',
  'feedback',
  'lesson',
  'participant',
  'writes',
] as const
export type LedgerTarget = (typeof LEDGER_TARGETS)[number]

export const Appeal = Type.Object(
  {
    action: Type.Literal('report_content'),
    target_type: Type.Literal('moderation'),
    target_id: Type.String({ description: 'This entry id, as a string.' }),
    category: Type.Literal('appeal'),
  },
  {
    description:
      'How to appeal: call report_content with these fields plus an explanation and good_faith: true (no key ' +
      'needed); read the outcome with report_status.',
  },
)

export const LedgerEntry = Type.Object(
  {
    id: Type.Integer({
      minimum: 1,
      description: 'The entry id: the after cursor; masked records name it as moderation_id.',
    }),
    at: Timestamp,
    action: StringEnum(LEDGER_ACTIONS),
    target_type: StringEnum(LEDGER_TARGETS),
    target_id: Type.Union([Type.String(), Type.Null()], {
      description: 'The item, note (memory_id) or participant id; null for a pause or resume of all writes.',
    }),
    reason_code: StringEnum(REASON_CODES),
    appeal: Appeal,
  },
  { description: 'One public moderation act. No operator identity and no private content, ever.' },
)

export const LedgerInput = Type.Object(
  { after: Type.Optional(Cursor), limit: Type.Optional(Limit) },
  { additionalProperties: false },
)

export const LedgerResult = PagedList('entries', LedgerEntry, {
  description: 'Entries after the cursor, oldest first.',
})
