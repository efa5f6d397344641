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

const REDACT_PATHS = SECRET_FIELDS.flatMap((f) => [f, `*.${f}`, `*.*.${f}`, `req.body.${f}`])

/** A request target without its query string: a key pasted into a URL never reaches the log. */
export function pathOnly(url: string | undefined): string | undefined {
  if (url === undefined) return undefined
  const query = url.indexOf('?')
  return query === -1 ? url : url.slice(0, query)
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
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
      serializers: {
        req: (req: { method?: string; url?: string; id?: string }) => ({
          method: req.method,
          path: pathOnly(req.url),
          id: req.id,
        }),
        res: (res: { statusCode?: number }) => ({ statusCode: res.statusCode }),
      },
    },
    destination ?? pino.destination({ sync: false }),
  )
}
