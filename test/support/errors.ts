import type { ErrorAnswer } from '../../src/http/openapi-components.ts'

/** The body of every error answer (DESIGN.md, "Errors"): the schema `/openapi.json` publishes as `Error`. */
export type ErrorReply = ErrorAnswer

/** The error code an answer's body carries; undefined for a body that is not an error. */
export const codeOf = (body: unknown): string | undefined => (body as Partial<ErrorReply> | null)?.error?.code
