import type { Notice } from '../schemas/notices.ts'
import type { KeyExposure } from '../store/participants/key-exposures.ts'

/** The notices of the presented key (resume_history, check_returns): its exposure, if a write held it. */
export function noticesFor(exposure: KeyExposure | undefined): Notice[] {
  if (!exposure) return []
  return [{ type: 'key_exposed', at: exposure.exposed_at, action: exposure.action, field: exposure.field }]
}
