import { ServiceError } from './errors.ts'
import { canonicalJson } from './canonical-json.ts'
import { sha256 } from './secrets.ts'

/** Input fields that name the action or carry a credential: never part of what is written. */
const NOT_PAYLOAD = new Set(['action', 'key', 'new_key', 'review_key', 'operator_key', 'session_token'])

/**
 * The canonical hash of a write's payload: every input field except the action name and
 * credentials (so a retry after rotating the key still matches), absent optional fields left out,
 * in RFC 8785 form (keys sorted at every level; the same text the hand-written form before it gave for
 * every JSON input, so stored hashes still match). Two writes under one client_id are the same write exactly when their
 * hashes are equal; the hash is stored beside the record it produced.
 */
export function payloadHash(input: object): string {
  const payload = Object.fromEntries(
    Object.entries(input).filter(([field, value]) => !NOT_PAYLOAD.has(field) && value !== undefined),
  )
  return sha256(canonicalJson(payload))
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
