import { maxHeaderSize, STATUS_CODES } from 'node:http'
import type { Socket } from 'node:net'
import type { FastifyInstance } from 'fastify'
import { CORE_ERROR_STATUS, errorBody, ServiceError, type CoreErrorCode } from '../services/errors.ts'

/**
 * Requests Node refuses before any route sees them answer with the service's one error body too: a
 * request line and headers past Node's limit (a long query string, say), a request that did not
 * arrive within REQUEST_TIMEOUT_SECONDS, bytes that are not HTTP. Fastify's default wrote a shape of
 * its own there. The error's own text stays out of the log: it may quote the raw request, credentials
 * included.
 */
export function answerClientError(this: FastifyInstance, err: NodeJS.ErrnoException, socket: Socket): void {
  // A reset connection has nobody left to answer.
  if (err.code === 'ECONNRESET' || socket.destroyed) return
  const error = clientError(err.code)
  const status = CORE_ERROR_STATUS[error.code]
  this.log.debug({ code: err.code, status }, 'request refused before routing')
  // As Node itself does: no answer into a socket whose current response has begun (a pipelined request).
  const current = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage
  if (socket.writable && !current?.headersSent) {
    const body = JSON.stringify(errorBody(error))
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
        `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `Connection: close\r\n\r\n${body}`,
    )
  }
  socket.destroy()
}

function clientError(code: string | undefined): ServiceError<CoreErrorCode> {
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return new ServiceError('request_timeout', 'The request did not arrive within the time the server allows.')
  }
  if (code === 'HPE_HEADER_OVERFLOW') {
    return new ServiceError(
      'headers_too_large',
      `The request line and headers are over ${maxHeaderSize / 1024} KiB: send long input in a JSON body.`,
    )
  }
  return new ServiceError('invalid_request', 'The request is not valid HTTP/1.1.')
}
