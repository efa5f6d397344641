import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify'
import type { ErrorTable } from '../core/error-table.ts'
import { CORE_ERROR_STATUS, errorBody, ServiceError } from '../services/errors.ts'
import { pathOnly } from '../logger.ts'
import { stateField } from './quota-headers.ts'
import { shownPath } from './request-log.ts'

/** Maps everything thrown during a request to DESIGN.md's error body, once, for every route. */
export function installErrorHandling(app: FastifyInstance, statuses: ErrorTable): void {
  app.setErrorHandler((err: FastifyError | ServiceError, request, reply) => {
    const answer = statuses.answer(err instanceof ServiceError ? err : fromFastify(err))
    if (answer.unknownCode !== undefined) request.log.error({ err, code: answer.unknownCode }, 'unknown error code')
    // Refusals (paused writes, limits, bad input) are answers, not failures: only the unexpected is an error.
    else if (answer.error.code === 'internal_error') request.log.error({ err }, 'request failed')
    sendError(reply, answer.error, answer.status)
  })
  app.setNotFoundHandler((request, reply) => {
    const path = pathOnly(request.url) ?? '/'
    const allowed = METHODS.filter((method) => app.hasRoute({ method, url: path }))
    if (allowed.length > 0) {
      reply.header('allow', allowed.join(', '))
      const error = new ServiceError('method_not_allowed', `${path} answers ${allowed.join(', ')} only.`)
      return sendError(reply, error, CORE_ERROR_STATUS[error.code])
    }
    // Named as the log names it: never a key typed into the path (proxies and clients log answers too).
    const error = new ServiceError('route_not_found', `No route ${request.method} ${shownPath(request)}.`)
    return sendError(reply, error, CORE_ERROR_STATUS[error.code])
  })
}

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH'] as const

export function sendError(reply: FastifyReply, error: ServiceError, status: number): FastifyReply {
  if (error.retryAfterSeconds !== undefined) reply.header('retry-after', String(error.retryAfterSeconds))
  if (error.quota) reply.header('ratelimit', stateField(error.quota))
  if (status === 429) reply.header('cache-control', 'no-store')
  return reply.code(status).type('application/json; charset=utf-8').send(errorBody(error))
}

function fromFastify(err: FastifyError): ServiceError {
  switch (err.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ServiceError('payload_too_large', 'The request body is larger than 64 KiB.')
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ServiceError('invalid_request', 'Send the body as JSON with Content-Type: application/json.')
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new ServiceError('invalid_request', 'The JSON body is empty.')
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new ServiceError('invalid_request', 'The body is not valid JSON.')
  }
  if (err instanceof SyntaxError || (err.statusCode === 400 && /JSON/i.test(err.message))) {
    return new ServiceError('invalid_request', 'The body is not valid JSON.')
  }
  if (err.statusCode === 413) return new ServiceError('payload_too_large', 'The request body is too large.')
  if (err.statusCode !== undefined && err.statusCode >= 400 && err.statusCode < 500) {
    return new ServiceError('invalid_request', 'The request is invalid.')
  }
  return new ServiceError('internal_error', 'The service could not complete the request.')
}
