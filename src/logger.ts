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
  'password',
]

const REDACT_PATHS = SECRET_FIELDS.flatMap((f) => [f, `*.${f}`, `*.*.${f}`, `req.body.${f}`])

/**
 * pino with secret redaction. Requests are logged by method, path and id only: no client address,
 * no headers, no body (the spec adds no IP logging, and bodies carry keys).
 */
export function createLogger(config: Pick<Config, 'logLevel'>, destination?: DestinationStream): Logger {
  return pino(
    {
      level: config.logLevel,
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
      serializers: {
        req: (req: { method?: string; url?: string; id?: string }) => ({
          method: req.method,
          url: req.url,
          id: req.id,
        }),
        res: (res: { statusCode?: number }) => ({ statusCode: res.statusCode }),
      },
    },
    destination,
  )
}
