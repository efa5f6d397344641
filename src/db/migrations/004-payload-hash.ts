import { createHash } from 'node:crypto'

// Migration 004's payload hash, frozen as it ran (core/idempotency.ts is the runtime's).
const sha256 = (text: string) => createHash('sha256').update(text).digest('base64url')

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
