import { ServiceError } from './errors.ts'
import { sha256 } from './secrets.ts'

/** Input fields that name the action or carry a credential: never part of what is written. */
const NOT_PAYLOAD = new Set(['action', 'key', 'new_key', 'review_key', 'operator_key', 'session_token'])

/**
 * The canonical hash of a write's payload: every input field except the action name and
 * credentials (so a retry after rotating the key still matches), absent optional fields left out,
 * keys sorted at every level. Two writes under one client_id are the same write exactly when their
 * hashes are equal; the hash is stored beside the record it produced.
 */
export function payloadHash(input: object): string {
  const payload = Object.fromEntries(
    Object.entries(input).filter(([field, value]) => !NOT_PAYLOAD.has(field) && value !== undefined),
  )
  return sha256(canonicalJson(payload))
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`
  if (typeof value === 'object' && value !== null) {
    const fields = Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    return `{${fields.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`
  }
  return JSON.stringify(value)
}

/**
 * The one idempotency rule of every client_id write. `earlier` is the record an earlier write with
 * this client_id produced (in the caller's namespace), if any: none means write; the same payload
 * means answer with the earlier record again (duplicate: true); another payload is a 409 and
 * nothing changes.
 */
export function replayOf<R extends { payload_hash: string | null }>(
  earlier: R | undefined,
  hash: string,
): R | undefined {
  if (earlier === undefined) return undefined
  if (earlier.payload_hash === hash) return earlier
  throw new ServiceError(
    'idempotency_conflict',
    'This client_id was already used with a different payload. Retry with the same payload, or use a new client_id for a new write.',
  )
}
