import type { AnyAction } from './action.ts'
import type { ErrorCode } from '../services/errors.ts'
import { CREDENTIAL_FIELDS } from '../services/secrets.ts'
import { storedTextPaths } from '../services/secret-scan/fields.ts'
import { CHECKSUMMED_FIELDS } from '../services/key-format.ts'

/** The input fields of an action that carry a caller's secret (services/secrets.ts, CREDENTIAL_FIELDS). */
export function credentialFields(def: AnyAction): string[] {
  const properties = (def.input as { properties?: Record<string, unknown> }).properties ?? {}
  return CREDENTIAL_FIELDS.filter((field) => field in properties)
}

/** The stored text fields of a write, scanned for secrets before it runs (services/secret-scan/fields.ts). */
export function textFields(def: AnyAction): string[] {
  return def.effect === 'write' ? storedTextPaths(def.input, CREDENTIAL_FIELDS) : []
}

/**
 * Every error an action can answer with: what its handler declares plus what the pipeline itself
 * refuses with, derived from the action's binding, auth and effect. OpenAPI, MCP and the descriptor
 * publish this list, and the pipeline (in contract-checking mode) refuses to throw anything else.
 */
export function publishedErrors(def: AnyAction): ErrorCode[] {
  const codes = new Set<ErrorCode>(Object.keys(def.errors) as ErrorCode[])
  // Every input is validated (schema, text well-formedness, integer bounds).
  codes.add('invalid_request')
  if (def.http.method === 'POST') codes.add('payload_too_large')
  // Stored texts are scanned for secrets; a scan that cannot finish refuses the write (503).
  if (textFields(def).length > 0) for (const code of ['contains_secret', 'unavailable'] as const) codes.add(code)
  if (def.effect === 'write' && def.auth !== 'operator') codes.add('writes_paused')
  if (def.auth === 'operator' || def.auth === 'review') codes.add('operator_only')
  // Wrong secrets are throttled per abuse bucket (core/key-guard.ts), so rate_limited is always possible.
  if (credentialFields(def).length > 0) codes.add('rate_limited')
  // A checksummed key, receipt key or session token with a wrong checksum (core/stages/key-checksum.ts).
  if (credentialFields(def).some((field) => CHECKSUMMED_FIELDS.includes(field))) codes.add('invalid_key')
  if (def.auth === 'participant') {
    for (const code of ['invalid_key', 'key_revoked'] as const) codes.add(code)
    if (def.effect === 'write') codes.add('participant_suspended')
    if (!def.allowPaused) codes.add('participant_paused')
  }
  return [...codes].sort()
}
