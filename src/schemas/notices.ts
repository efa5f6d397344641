import { Type, type Static } from 'typebox'
import { Timestamp } from './common.ts'

/** A notice to the holder of a key: today only that the key was found in a write and revoked. */
export const Notice = Type.Object(
  {
    type: Type.Literal('key_exposed'),
    at: Timestamp,
    action: Type.String({ description: 'The action whose write held the key.' }),
    field: Type.String({ description: 'The field that held it, as a JSON pointer (/content). Never its text.' }),
  },
  { description: 'Your key appeared in a write and was revoked at once; nothing of that write was stored.' },
)
export type Notice = Static<typeof Notice>

export const Notices = Type.Array(Notice, {
  description:
    "Notices for the key you presented. key_exposed: the key was found in a write (yours or anyone's) and revoked; " +
    'it answers only here, with nothing private, and every other action refuses it (key_revoked). Join again for a new identity.',
})
