import { lintSource } from '@secretlint/core'
import { rules } from '@secretlint/secretlint-rule-preset-recommend'
import { mayHoldLibrarySecret } from './library-anchors.ts'
import { hasPlaceholderPassword } from './rules.ts'

/**
 * The scanner library as Clearing uses it: whether it could find anything in a text (cheap, and
 * never false where `lint` would report), and the kinds of secret it finds (asynchronous).
 */
export interface SecretLibrary {
  mayMatch(text: string): boolean
  lint(text: string): Promise<string[]>
}

export const RULE_PREFIX = '@secretlint/secretlint-rule-'
// secretlint-disable comments would let a writer switch the scan off inside their own text.
const BYPASS = `${RULE_PREFIX}filter-comments`

/** The recommended preset's rules, each by its id, but the one that reads disabling comments. */
export const LIBRARY_RULES = rules.filter((rule) => rule.meta.id !== BYPASS)
const CONFIG = { rules: LIBRARY_RULES.map((rule) => ({ id: rule.meta.id, rule })) }

/**
 * secretlint's core with its recommended preset (provider tokens, private keys, basic auth, database
 * URLs, ...), run only where one of its rules could match (library-anchors.ts).
 */
export const secretlint: SecretLibrary = { mayMatch: mayHoldLibrarySecret, lint: lintText }

/** The whole preset over a text. */
export async function lintText(text: string): Promise<string[]> {
  const result = await lintSource({
    source: { filePath: 'write.txt', content: text, ext: '.txt', contentType: 'text' },
    options: { config: CONFIG, maskSecrets: true, noPhysicFilePath: true },
  })
  return result.messages
    .filter((message) => !(URL_RULES.has(message.ruleId) && hasPlaceholderPassword(text.slice(...message.range))))
    .map((message) => kindOf(message.ruleId))
}

// Rules that report URLs with a password: one that is a placeholder is how set-ups are documented.
const URL_RULES = new Set([`${RULE_PREFIX}database-connection-string`, `${RULE_PREFIX}basicauth`])

// `@secretlint/secretlint-rule-github` -> `github`: the provider, never anything of the text.
export function kindOf(ruleId: string): string {
  return (ruleId.startsWith(RULE_PREFIX) ? ruleId.slice(RULE_PREFIX.length) : ruleId).replace(/[^a-z0-9]+/gi, '_')
}
