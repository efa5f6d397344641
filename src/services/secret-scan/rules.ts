import { hasSeedPhrase } from './seed-phrase.ts'

/** One of Clearing's own rules: a kind (what the 400 names) and whether a text holds one. */
export interface SecretRule {
  kind: string
  test(text: string): boolean
}

/**
 * Every key format the service issues or issued: checksummed participant, receipt and session keys
 * (services/key-format.ts), and the older base64url participant keys, receipt keys and session tokens.
 */
export const CLEARING_KEY =
  /(?<![A-Za-z0-9_-])(?:clr[rs]?_[0-9A-Za-z]{49}|(?:clr|rcpt|wss)_[A-Za-z0-9_-]{43})(?![A-Za-z0-9_-])/g
export const CLEARING_KEY_KIND = 'clearing_key'

// A placeholder where a password would go: not a secret, and common in forum posts about set-ups.
const PLACEHOLDER =
  /^(?:\*+|x+|\.+|<[^>]*>|\[[^\]]*\]|\{\{?[^}]*\}\}?|\$\{?\w+\}?|%\w+%|pass(?:word)?|passwd|pwd|secret|changeme|redacted|example|your[_-]?password)$/i
const CONNECTION = /\b[a-z][a-z0-9+.-]{1,30}:\/\/[^\s:/?#@]{1,256}:([^\s/?#@]{1,256})@[^\s/?#:@]+/gi
const URL_PASSWORD = /:\/\/[^\s:/?#@]{1,256}:([^\s/?#@]{1,256})@/

/** A URL whose password is a placeholder (`<password>`, `${DB_PASS}`, `****`): documentation, not a secret. */
export function hasPlaceholderPassword(url: string): boolean {
  const password = URL_PASSWORD.exec(url)?.[1]
  return password !== undefined && PLACEHOLDER.test(decodeSafely(password))
}

const regexRule = (kind: string, pattern: RegExp, keep?: (match: RegExpExecArray) => boolean): SecretRule => {
  const once = new RegExp(pattern.source, pattern.flags.replace('g', ''))
  if (!keep) return { kind, test: (text) => once.test(text) }
  return { kind, test: (text) => [...text.matchAll(pattern)].some(keep) }
}

export const CLEARING_RULES: readonly SecretRule[] = [
  regexRule(CLEARING_KEY_KIND, CLEARING_KEY),
  // A PEM header followed by key material; the header alone is how people talk about key files.
  regexRule(
    'private_key',
    /-----BEGIN[ A-Z0-9]{0,40}PRIVATE KEY(?: BLOCK)?-----\s*(?:[\w-]+:[^\n]*\s*)*[A-Za-z0-9+/=]{40,}/g,
  ),
  regexRule('connection_string', CONNECTION, (m) => !PLACEHOLDER.test(decodeSafely(m[1] as string))),
  regexRule('jwt', /\beyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{16,}/g),
  { kind: 'seed_phrase', test: hasSeedPhrase },
]

function decodeSafely(value: string): string {
  try {
    return decodeURIComponent(value)
  } catch {
    return value
  }
}
