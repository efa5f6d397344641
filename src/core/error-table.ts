import { CORE_ERROR_STATUS, ServiceError, type DeclaredErrors } from '../services/errors.ts'

/** Where a code's status was declared, to name both sides of a conflict. */
const CORE = 'services/errors.ts'

/** What a transport answers for an error: its status, or 500 internal_error for a code no table knows. */
export interface ErrorAnswer {
  error: ServiceError
  status: number
  /** The code no table knew (a bug: the transport logs it). */
  unknownCode?: string
}

/**
 * The one table of error statuses: the core's own codes merged with every action's declared ones. A
 * code declared with two statuses is a mistake the registry refuses at construction.
 */
export class ErrorTable {
  private readonly statuses = new Map<string, { status: number; by: string }>()

  constructor(declarations: ReadonlyArray<{ by: string; errors: DeclaredErrors }>) {
    for (const { by, errors } of [{ by: CORE, errors: CORE_ERROR_STATUS }, ...declarations]) {
      for (const [code, status] of Object.entries(errors)) {
        if (!/^[a-z][a-z0-9_]*$/.test(code)) throw new Error(`${by} declares error code "${code}": use snake_case`)
        if (!Number.isInteger(status) || status < 400 || status > 599) {
          throw new Error(`${by} declares ${code} with status ${status}: an error's status is 4xx or 5xx`)
        }
        const known = this.statuses.get(code)
        if (known && known.status !== status) {
          throw new Error(`Error code ${code} has two statuses: ${known.status} in ${known.by}, ${status} in ${by}`)
        }
        if (!known) this.statuses.set(code, { status, by })
      }
    }
  }

  statusOf(code: string): number | undefined {
    return this.statuses.get(code)?.status
  }

  /** Every code with its status, by code. */
  all(): Record<string, number> {
    const codes = [...this.statuses.keys()].sort()
    return Object.fromEntries(codes.map((code) => [code, this.statuses.get(code)?.status as number]))
  }

  answer(error: ServiceError): ErrorAnswer {
    const status = this.statusOf(error.code)
    if (status !== undefined) return { error, status }
    const internal = new ServiceError('internal_error', 'The service could not complete the request.')
    return { error: internal, status: CORE_ERROR_STATUS.internal_error, unknownCode: error.code }
  }
}
