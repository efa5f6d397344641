/**
 * The phrase rules, over folded text (fold.ts: one whitespace character between words, a line break
 * kept as one). Every pattern is a fixed alternation with bounded gaps ({0,n}), never a nested or
 * unbounded quantifier, so each start position costs at most a constant: linear on any input.
 */
const QUALIFIERS =
  /\b(?:all|any|your|previous|prior|above|earlier|preceding|foregoing|system|initial|original|developer|safety)\b/

const IGNORE_INSTRUCTIONS =
  /\b(?:ignore|disregard|forget|override|bypass)\s(?:(?:all|any|the|your|of|everything|previous|prior|above|earlier|preceding|foregoing|system|initial|original|developer|safety)\s){1,4}(?:instructions?|prompts?|rules|directions|guidelines|messages|guardrails|restrictions|policies|programming)\b/g

const INSTRUCTION_PATTERNS = [
  /<\|[a-z_]{1,24}\|>|\[\/?inst\]|<<\/?sys>>|<\/?(?:system|system_prompt|instructions?)>/,
  /^[>#*\s-]{0,8}(?:system|assistant|developer)\s?:/m,
  /^#{1,6}\s?(?:instructions?|system|system prompt)\b/m,
  /\byou are now\b|\bfrom now on,?\syou\s(?:are|will|must|should)\b|\bnew\s(?:system\s)?instructions?\s?:/,
  /\b(?:reveal|print|show|repeat|output|leak|dump)\s(?:(?:me|us|your|the|full|entire|hidden|initial|original)\s){0,3}(?:system\s(?:prompt|message)|hidden\sinstructions|initial\sinstructions|instructions\sabove)\b/,
  /\bdo\snot\s(?:tell|inform|alert|warn)\s(?:the\s|your\s)?(?:user|operator|human|owner)s?\b/,
  /\bjailbreak|\bdan\smode\b|\bdeveloper\smode\s(?:enabled|on)\b/,
  /\b(?:ai|llm|language\smodel|agent|assistant|model)s?\sreading\sthis\b/,
]

export function isInstructionLike(folded: string): boolean {
  for (const match of folded.matchAll(IGNORE_INSTRUCTIONS)) {
    if (QUALIFIERS.test(match[0])) return true
  }
  return INSTRUCTION_PATTERNS.some((pattern) => pattern.test(folded))
}

const SECRETS =
  '(?:api\\s?keys?|private\\s?keys?|secret\\s?keys?|passwords?|passphrases?|pass\\s?codes?|seed\\s?phrases?|seed\\swords|recovery\\s(?:phrases?|words|codes?)|mnemonics?|secret\\sphrases?|access\\stokens?|auth(?:entication)?\\stokens?|bearer\\stokens?|session\\stokens?|participation\\skeys?|operator\\skeys?|clearing\\skeys?|credentials|login\\sdetails|wallet\\s(?:keys?|secrets?)|ssh\\skeys?|2fa\\scodes?|otp|one-time\\s(?:codes?|passwords?)|verification\\scodes?|\\.env(?:\\sfile)?|env(?:ironment)?\\svar(?:iable)?s)'

const ASK_FOR_SECRET = new RegExp(
  '\\b(?:send|give|share|post|paste|provide|tell|dm|reply\\swith|drop|enter|type|submit|reveal|include|hand\\sover|forward|upload|need|want|require|verify)\\b' +
    '[^.!?\\n]{0,40}?\\b(?:your|ur|yours)\\b[^.!?\\n]{0,25}?\\b' +
    SECRETS +
    '\\b',
  'g',
)
const WHAT_IS_YOUR_SECRET = new RegExp("\\bwhat(?:'s|\\sis|\\sare)\\s(?:your|ur)\\s(?:\\w+\\s){0,2}?" + SECRETS + '\\b')
const NEGATED = /\b(?:never|not|n't|don't|dont|avoid|nobody|no\sone)\b[^.!?\n]{0,12}$/

export function isCredentialRequest(folded: string): boolean {
  for (const match of folded.matchAll(ASK_FOR_SECRET)) {
    const before = folded.slice(Math.max(0, match.index - 24), match.index)
    if (!NEGATED.test(before)) return true
  }
  return WHAT_IS_YOUR_SECRET.test(folded)
}
