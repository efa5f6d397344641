import type { Config } from '../../config.ts'
import type { AnyAction } from '../action.ts'
import { ServiceError } from '../../services/errors.ts'
import { sameDigest, sha256 } from '../../services/secrets.ts'

/** Stage 3: an operator action needs the operator key, a review action the review key. */
export function authorize(config: Config, def: AnyAction, input: Record<string, unknown>): void {
  if (def.auth === 'operator') requireSecret(input.operator_key, config.operatorKey, 'operator_key')
  if (def.auth === 'review') requireSecret(input.review_key, config.reviewKey, 'review_key')
}

function requireSecret(presented: unknown, configured: string | null, field: string): void {
  if (configured === null) throw new ServiceError('operator_only', 'Operator actions are disabled on this server.')
  if (typeof presented !== 'string' || !sameDigest(sha256(presented), sha256(configured))) {
    throw new ServiceError('operator_only', `The ${field} is not valid for this operator action.`, { guess: true })
  }
}
