/** The body of every error answer (DESIGN.md, "Errors"), as the tests read it. */
export interface ErrorReply {
  error: { code: string; message: string; details?: Array<{ path: string; message: string }> }
  retry_after_seconds?: number
}

/** The error code an answer's body carries; undefined for a body that is not an error. */
export const codeOf = (body: unknown): string | undefined => (body as Partial<ErrorReply> | null)?.error?.code
