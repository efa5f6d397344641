/**
 * What a successful result may ask of the REST transport besides its JSON body: another status (the
 * x402 answers are HTTP 402 with a PAYMENT-REQUIRED header), response headers, and one cookie (the
 * wallet page's session). Handlers stay free of HTTP objects: they return plain data tagged with
 * withHttpAnswer, and only the REST adapter (http/rest.ts) reads the tag. The tag is a non-enumerable
 * symbol property, so JSON bodies, output-schema checks and MCP results never see it.
 */
export interface HttpCookie {
  name: string
  value: string
  /** Lifetime in seconds; 0 clears the cookie. Always Secure, HttpOnly, SameSite=Strict, Path=/. */
  maxAgeSeconds: number
}

export interface HttpAnswer {
  status?: number
  headers?: Readonly<Record<string, string>>
  cookie?: HttpCookie
}

const ANSWER = Symbol('clearing.http-answer')

/** Returns result itself, tagged with what REST should add to the answer. */
export function withHttpAnswer<T extends object>(result: T, answer: HttpAnswer): T {
  Object.defineProperty(result, ANSWER, { value: answer, enumerable: false, configurable: true })
  return result
}

export function httpAnswerOf(result: unknown): HttpAnswer | undefined {
  if (typeof result !== 'object' || result === null) return undefined
  return (result as { [ANSWER]?: HttpAnswer })[ANSWER]
}
