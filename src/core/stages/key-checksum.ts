import { ServiceError } from '../../services/errors.ts'
import { CHECKSUMMED_FIELDS, checksumFails } from '../../services/key-format.ts'
import type { RegisteredAction } from '../registry.ts'

/**
 * Part of stage 2: a presented key in the checksummed format whose checksum does not match was
 * mistyped or made up, so it is refused without a database read; it still counts as a guess.
 */
export function refuseMistypedKeys(entry: RegisteredAction, input: Record<string, unknown>): void {
  for (const field of entry.credentials) {
    const value = input[field]
    if (!CHECKSUMMED_FIELDS.includes(field) || typeof value !== 'string') continue
    if (checksumFails(value)) {
      throw new ServiceError(
        'invalid_key',
        'The key is not valid: its checksum does not match (mistyped or altered).',
        {
          details: [{ path: `/${field}`, message: 'checksum does not match' }],
          guess: true,
        },
      )
    }
  }
}
