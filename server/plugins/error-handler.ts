import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify'
import { errors, PostgrestError } from '../postgrest.js'
import { StoreUnavailableError } from '../store/store.js'

/**
 * Shapes every error answer as PostgREST's JSON body. 4xx keep their message; 5xx are logged with
 * the request id and answered generically: no stack, SQL or driver text leaves the server.
 */
export function handleError(error: FastifyError | Error, request: FastifyRequest, reply: FastifyReply) {
  const known = toPostgrestError(error)
  if (known) {
    if (known.status >= 500) request.log.warn({ err: error }, 'store unavailable; answered 503')
    return send(reply, known)
  }
  const status = 'statusCode' in error && typeof error.statusCode === 'number' ? error.statusCode : 500
  if (status < 500) {
    const code = 'code' in error && typeof error.code === 'string' ? error.code : 'bad_request'
    return send(reply, new PostgrestError(status, code, error.message))
  }
  request.log.error({ err: error }, 'unhandled error')
  return send(reply, new PostgrestError(500, 'internal_error', 'Internal server error', { hint: 'Please try again.' }))
}

function toPostgrestError(error: FastifyError | Error): PostgrestError | undefined {
  if (error instanceof PostgrestError) return error
  if (error instanceof StoreUnavailableError) return errors.storeUnavailable()
  const code = 'code' in error ? error.code : undefined
  if (code === 'FST_ERR_CTP_BODY_TOO_LARGE') return errors.payloadTooLarge()
  if (code === 'FST_ERR_CTP_EMPTY_JSON_BODY' || code === 'FST_ERR_CTP_INVALID_JSON_BODY') return errors.invalidJson()
  return undefined
}

function send(reply: FastifyReply, error: PostgrestError) {
  return reply
    .code(error.status)
    .headers(error.headers)
    .type('application/json; charset=utf-8')
    .send(error.body())
}

/**
 * Bytes that are not HTTP never reach a route: Node reports them as a client error. They get the
 * same JSON shape as every other error, then the connection is closed.
 */
export function handleClientError(error: NodeJS.ErrnoException, socket: import('node:stream').Duplex) {
  if (!socket.writable) return
  const [status, reason] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request Header Fields Too Large']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'Request Timeout']
        : [400, 'Bad Request']
  const body = JSON.stringify({ code: 'bad_request', details: null, hint: null, message: reason })
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  )
}
