import { parseCookie, stringifySetCookie } from 'cookie'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { ServiceError } from '../services/errors.ts'
import type { HttpAnswer } from '../services/http-answer.ts'
import type { RegisteredAction } from '../core/registry.ts'

/**
 * The POST input of an action: the JSON body plus the request data its definition names
 * (ActionDef.requestFields), copied in as plain fields so the handler never sees the request.
 */
export function inputWithRequestFields(entry: RegisteredAction, request: FastifyRequest, body: unknown): unknown {
  const spec = entry.def.requestFields
  if (!spec || typeof body !== 'object' || body === null || Array.isArray(body)) return body
  const input: Record<string, unknown> = { ...(body as Record<string, unknown>) }
  for (const [header, field] of Object.entries(spec.headers ?? {})) {
    const value = request.headers[header]
    if (typeof value !== 'string') continue
    if (field in input && input[field] !== value) {
      throw new ServiceError('invalid_request', `Send ${field} as the ${header} header or in the body, not both.`, {
        details: [{ path: `/${field}`, message: `differs from the ${header} header` }],
      })
    }
    input[field] = value
  }
  // Only a page of this origin may stand in its cookie for a body field (the wallet page's session);
  // the cookie is SameSite=Strict as well, so another site cannot make a browser send it.
  if (spec.cookies && request.headers['sec-fetch-site'] === 'same-origin' && request.headers.cookie) {
    const cookies = parseCookie(request.headers.cookie)
    for (const [name, field] of Object.entries(spec.cookies)) {
      const value = cookies[name]
      if (value !== undefined && !(field in input)) input[field] = value
    }
  }
  return input
}

/** Applies what a result asked for (services/http-answer.ts): status, headers a browser may read, a cookie. */
export function applyAnswer(reply: FastifyReply, answer: HttpAnswer): void {
  if (answer.status !== undefined) reply.code(answer.status)
  const names = Object.keys(answer.headers ?? {})
  for (const name of names) reply.header(name, answer.headers?.[name])
  if (names.length) {
    const exposed = reply.getHeader('access-control-expose-headers')
    reply.header('access-control-expose-headers', [...(exposed ? [String(exposed)] : []), ...names].join(', '))
  }
  if (answer.cookie) {
    const { name, value, maxAgeSeconds } = answer.cookie
    reply.header(
      'set-cookie',
      stringifySetCookie(name, value, {
        maxAge: maxAgeSeconds,
        path: '/',
        secure: true,
        httpOnly: true,
        sameSite: 'strict',
      }),
    )
  }
}
