import { LogController, type FastifyReply, type FastifyRequest } from 'fastify'
import { pathOnly } from '../logger.ts'

/**
 * One line per request at info, written when the response is sent: method, path without its query
 * string, status and time. Fastify's default is two lines (received and completed) with the full
 * URL; the received line is kept at debug level for tracing a request that never completes.
 */
export class RequestLog extends LogController {
  override incomingRequest(request: FastifyRequest): void {
    request.log.debug({ method: request.method, path: pathOnly(request.url) }, 'incoming request')
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const line = {
      method: request.method,
      path: pathOnly(request.url),
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
