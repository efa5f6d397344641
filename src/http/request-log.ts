import { LogController, type FastifyReply, type FastifyRequest } from 'fastify'
import { pathOnly, redactSecretText } from '../logger.ts'

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH'] as const

/**
 * One line per request at info, written when the response is sent: method, path without its query
 * string, status and time. Fastify's default is two lines (received and completed) with the full
 * URL; the received line is kept at debug level for tracing a request that never completes.
 */
export class RequestLog extends LogController {
  override incomingRequest(request: FastifyRequest): void {
    // The shown path costs a redaction pass: only worked out when the line is written (LOG_LEVEL=debug).
    if (request.log.level !== 'debug' && request.log.level !== 'trace') return
    request.log.debug({ method: request.method, path: shownPath(request) }, 'incoming request')
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const line = {
      method: request.method,
      path: shownPath(request),
      status: reply.statusCode,
      ms: Math.round(reply.elapsedTime),
    }
    if (error) reply.log.error({ ...line, err: error }, 'request errored')
    else reply.log.info(line, 'request')
  }

  override routeNotFound(): void {
    // The 404 is answered and logged once, by requestCompleted.
  }
}

/**
 * The path as the log and a 404 answer show it. A path no route matched is cut after its longest prefix that is a
 * route (`GET /api/clearing/<key>` logs `/api/clearing/…`): its other segments are whatever the
 * client typed, a pasted key or operator key included. Anything left in a key's format is censored.
 */
export function shownPath(request: FastifyRequest): string {
  const path = pathOnly(request.url) ?? '/'
  return redactSecretText(request.is404 ? knownPrefix(request, path) : path)
}

function knownPrefix(request: FastifyRequest, path: string): string {
  const known = (url: string) => METHODS.some((method) => request.server.hasRoute({ method, url }))
  if (known(path)) return path // a route that answers other methods (405)
  const segments = path.split('/')
  for (let end = segments.length - 1; end > 1; end--) {
    const prefix = segments.slice(0, end).join('/')
    if (known(prefix)) return `${prefix}/…`
  }
  return '/…'
}
