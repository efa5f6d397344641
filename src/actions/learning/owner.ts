import { ServiceError } from '../../services/errors.ts'

/** Records are private: another key learns that it may not touch the record, and nothing of its text. */
export function notOwner(): ServiceError {
  return new ServiceError('not_owner', 'This learning record belongs to another participant.')
}
