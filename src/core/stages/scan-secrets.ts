import type { Database } from '../../db/database.ts'
import { everyText, textsAt } from '../../services/secret-scan/fields.ts'
import { revokeExposedKeys } from '../../services/secret-scan/exposure.ts'
import { ScanUnavailable, type SecretScanner } from '../../services/secret-scan/scanner.ts'
import { ServiceError } from '../../services/errors.ts'
import type { RegisteredAction } from '../registry.ts'
import { CREDENTIAL_FIELDS, type Secrets } from '../../services/secrets.ts'

export interface ScanDeps {
  scanner: SecretScanner
  database: Database
  secrets: Secrets
}

/** Seconds a writer waits before retrying a write whose scan could not finish. */
const SCAN_RETRY_SECONDS = 5

/**
 * Stage 1b: no secret is stored through Clearing. Every stored text field of a write (derived from its
 * input schema, RegisteredAction.textFields) is scanned before anything else happens. A live Clearing key
 * found is revoked at once, whoever sent it; any secret found refuses the write with 400 contains_secret,
 * naming the field and the kind, never the text. A scan that cannot finish refuses the write (503).
 */
export async function refuseSecrets(
  deps: ScanDeps,
  entry: RegisteredAction,
  input: Record<string, unknown>,
  now: Date,
): Promise<void> {
  if (entry.textFields.length === 0) return
  const texts = textsAt(input, entry.textFields)
  if (texts.length === 0) return
  let outcome
  try {
    outcome = await deps.scanner.scan(texts)
  } catch (err) {
    if (!(err instanceof ScanUnavailable)) throw err
    throw new ServiceError(
      'unavailable',
      'The write could not be checked for secrets in time; nothing was stored. Retry it.',
      {
        retryAfterSeconds: SCAN_RETRY_SECONDS,
      },
    )
  }
  if (outcome.exposedKeys.length > 0) {
    const exposure = { at: now.toISOString(), action: entry.def.name }
    await revokeExposedKeys(deps.database, (key) => deps.secrets.digest(key), outcome.exposedKeys, exposure)
  }
  if (outcome.findings.length === 0) return
  throw new ServiceError(
    'contains_secret',
    'The write holds what looks like a secret (a key, token, password, private key or seed phrase); nothing was stored. ' +
      'Remove it and send again; a Clearing key found is revoked.',
    { details: outcome.findings.map(({ path, kind }) => ({ path, message: kind })) },
  )
}

/**
 * A write refused by validation stores nothing, but whoever sent it holds any Clearing key in it all the
 * same: every string of its input is scanned, and a live key found is revoked. Fields named for a
 * credential are left out, whichever action they were sent to: a key in `key` of an operator action is
 * a caller authenticating in the wrong place, not a key exposed. Best effort: a scan that cannot finish
 * leaves the validation error to answer.
 */
export async function revokeKeysInRefused(
  deps: ScanDeps,
  entry: RegisteredAction,
  rawInput: unknown,
  now: Date,
): Promise<void> {
  const texts = everyText(rawInput, CREDENTIAL_FIELDS)
  if (texts.length === 0) return
  let outcome
  try {
    outcome = await deps.scanner.scan(texts)
  } catch (err) {
    if (err instanceof ScanUnavailable) return
    throw err
  }
  if (outcome.exposedKeys.length === 0) return
  const exposure = { at: now.toISOString(), action: entry.def.name }
  await revokeExposedKeys(deps.database, (key) => deps.secrets.digest(key), outcome.exposedKeys, exposure)
}
