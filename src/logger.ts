import { pino, type DestinationStream, type Logger } from 'pino'
import type { Config } from './config.ts'

/** Every secret-bearing field name, wherever it appears in a logged object. */
export const SECRET_FIELDS = [
  'key',
  'new_key',
  'operator_key',
  'review_key',
  'receipt_key',
  'session_token',
  // Wallet sign-in and x402 payments (issue 12): signatures, single-use nonces, payment payloads.
  'signature',
  'payment_signature',
  'payment_payload',
  'nonce',
  'password',
  'authorization',
]

const SECRETS = new Set(SECRET_FIELDS)
const CENSOR = '[redacted]'
/** As deep as anything is logged: request line, error, and objects and arrays two levels down. */
const REDACT_DEPTH = 4

/**
 * The logged object with every secret-named field censored, at any of the first levels. An object
 * without one is returned as it is, so the one-line request log costs a few key checks. (pino's path
 * redaction needs wildcard paths for "anywhere", and those cost 9% of a cached read.)
 */
export function redactSecrets<T>(value: T, depth = REDACT_DEPTH): T {
  if (depth === 0 || typeof value !== 'object' || value === null) return value
  let copy: Record<string, unknown> | unknown[] | undefined
  const entries = Array.isArray(value) ? value.entries() : Object.entries(value)
  for (const [key, member] of entries) {
    const censored = typeof key === 'string' && SECRETS.has(key) ? CENSOR : redactSecrets(member, depth - 1)
    if (censored === member) continue
    copy ??= Array.isArray(value) ? [...value] : { ...(value as Record<string, unknown>) }
    ;(copy as Record<string | number, unknown>)[key] = censored
  }
  if (copy === undefined) return value
  // An error keeps what pino's error serializer shows: its type, message and stack are not own enumerable fields.
  if (value instanceof Error && !Array.isArray(copy)) {
    return { type: value.name, message: value.message, stack: value.stack, ...copy } as T
  }
  return copy as T
}

/** A request target without its query string: a key pasted into a URL never reaches the log. */
export function pathOnly(url: string | undefined): string | undefined {
  if (url === undefined) return undefined
  const query = url.indexOf('?')
  return query === -1 ? url : url.slice(0, query)
}

/**
 * Every secret format the service issues or issued: participant keys (`clr_`), receipt keys (`clrr_`,
 * before them `rcpt_`) and wallet sessions (`clrs_`, before them `wss_`).
 */
const SECRET_TEXT = /(?:clr[rs]?|rcpt|wss)_[A-Za-z0-9_-]{16,}/g

/** Text with anything in a secret's format censored: for paths and messages that echo what a client sent. */
export function redactSecretText(text: string): string {
  return text.replace(SECRET_TEXT, CENSOR)
}

/**
 * pino with secret redaction. Requests are logged by method, path and id only: no client address,
 * no headers, no body, no query string (the spec adds no IP logging; bodies and mistyped URLs can
 * carry keys). Without a destination it writes to stdout asynchronously, so logging never blocks a
 * request on the terminal or pipe; close() flushes.
 */
export function createLogger(config: Pick<Config, 'logLevel'>, destination?: DestinationStream): Logger {
  return pino(
    {
      level: config.logLevel,
      formatters: { log: (object) => redactSecrets(object) },
      serializers: {
        req: (req: { method?: string; url?: string; id?: string }) => ({
          method: req.method,
          path: redactSecretText(pathOnly(req.url) ?? ''),
          id: req.id,
        }),
        res: (res: { statusCode?: number }) => ({ statusCode: res.statusCode }),
      },
    },
    destination ?? pino.destination({ sync: false }),
  )
}
