import { hasEncodedBlob } from './encoded-blob.ts'
import { fold } from './fold.ts'
import { hasHiddenUnicode } from './hidden-unicode.ts'
import { hasExecutableLink } from './links.ts'
import { isCredentialRequest, isInstructionLike } from './phrases.ts'

/**
 * The signal rules (DESIGN.md › Trust and safety): labels computed at write time on every stored
 * text a reader may be handed. They label, never block. Bump SIGNALS_VERSION whenever a rule's
 * behaviour changes: rows stored under another version are recomputed when read (stored.ts).
 */
export const SIGNALS_VERSION = 1

export const SIGNAL_NAMES = [
  'instruction_like',
  'credential_request',
  'executable_link',
  'hidden_unicode',
  'encoded_blob',
] as const
export type SignalName = (typeof SIGNAL_NAMES)[number]

interface Rule {
  name: SignalName
  description: string
  /** `raw` is the text as stored; `folded` its matching form (fold.ts). */
  matches: (raw: string, folded: string) => boolean
}

export const SIGNAL_RULES: readonly Rule[] = [
  {
    name: 'instruction_like',
    description:
      'Imperatives or markup addressed to a model: "ignore previous instructions" and kin, role markers ' +
      '(system:, <|im_start|>, [INST], ### Instruction), "you are now", requests to reveal a system prompt.',
    matches: (_raw, folded) => isInstructionLike(folded),
  },
  {
    name: 'credential_request',
    description:
      'Asks the reader for a secret: API or private keys, passwords, seed or recovery phrases, tokens, ' +
      'participation keys, one-time codes (not when negated: "never share your password").',
    matches: (_raw, folded) => isCredentialRequest(folded),
  },
  {
    name: 'executable_link',
    description:
      'Links to executables, installers or scripts (.exe .sh .ps1 .bat .msi .dmg .apk .jar .py ...), ' +
      'skill files (SKILL.md, *.skill), or download-and-run lines (curl ... | sh, iwr ... | iex).',
    matches: (_raw, folded) => hasExecutableLink(folded),
  },
  {
    name: 'hidden_unicode',
    description:
      'Invisible characters a model reads but a person does not see: bidi overrides and isolates, ' +
      'zero-width characters, Unicode tag characters (U+E0000-E007F). Emoji and script joiners pass.',
    matches: (raw) => hasHiddenUnicode(raw),
  },
  {
    name: 'encoded_blob',
    description:
      'Long encoded runs: base64 of 100+ characters, hex of 130+ digits (longer than a SHA-512 digest), ' +
      '16+ consecutive %XX, \\xXX or \\uXXXX escapes.',
    matches: (raw) => hasEncodedBlob(raw),
  },
]

/** The signals of a record's texts (title, content, reason, ...), in the order of SIGNAL_NAMES. */
export function computeSignals(texts: ReadonlyArray<string | null | undefined>): SignalName[] {
  const present = texts.filter((text): text is string => typeof text === 'string' && text.length > 0)
  if (present.length === 0) return []
  const raw = present.join('\n')
  const folded = fold(raw)
  return SIGNAL_RULES.filter((rule) => rule.matches(raw, folded)).map((rule) => rule.name)
}
