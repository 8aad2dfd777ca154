// Every error answer of the server has PostgREST's JSON shape ({code, details, hint, message}),
// the API's and the operators' alike; one handler writes them all (docs/protocol.md, "Answers").
import type { FastifyError, FastifyReply, FastifyRequest, FastifySchemaValidationError } from 'fastify'
import type { Duplex } from 'node:stream'
import { StoreUnavailableError } from '../store/types.js'

export interface ErrorBody {
  code: string | null
  details: string | null
  hint: string | null
  message: string
}

/** An answer that is not a success: its status, its body's fields and any headers it needs. */
export class HttpError extends Error {
  override name = 'HttpError'
  readonly status: number
  readonly code: string | null
  readonly details: string | null
  readonly hint: string | null
  readonly headers: Record<string, string>

  constructor(
    status: number,
    code: string | null,
    message: string,
    extra: { details?: string | null; hint?: string | null; headers?: Record<string, string> } = {},
  ) {
    super(message)
    this.status = status
    this.code = code
    this.details = extra.details ?? null
    this.hint = extra.hint ?? null
    this.headers = extra.headers ?? {}
  }

  body(): object {
    return { code: this.code, details: this.details, hint: this.hint, message: this.message } satisfies ErrorBody
  }
}

/**
 * The store cannot answer now: 503, retryable, nothing half-written. The code and words are
 * PostgREST's (docs/protocol.md, row 19), whichever route met the outage.
 */
export const storeUnavailable = () => new HttpError(503, 'PGRST002', 'Could not connect to the database', { hint: 'Please try again.' })

/** Whole seconds until a limit's window ends, at least 1: what `Retry-After` says. */
export const secondsUntil = (resetMs: number) => Math.max(1, Math.ceil(resetMs / 1000))

const englishPlural = new Intl.PluralRules('en')
/** The hint of a 429: "Retry after 1 second", "Retry after 42 seconds" (the API speaks English). */
export const retryHint = (seconds: number) => `Retry after ${seconds} ${englishPlural.select(seconds) === 'one' ? 'second' : 'seconds'}`

/** A 429 with its code and message, the hint and `Retry-After` saying when the window ends. */
export const tooMany = (code: string, message: string, resetMs: number) => {
  const seconds = secondsUntil(resetMs)
  return new HttpError(429, code, message, { hint: retryHint(seconds), headers: { 'retry-after': String(seconds) } })
}

/** A body over a route's limit (docs/protocol.md, row 7, for the PostgREST insert). */
export const payloadTooLarge = () => new HttpError(413, 'payload_too_large', 'Payload Too Large')

/**
 * Shapes every error answer. 4xx keep their message; 5xx are logged with the request id and
 * answered generically: no stack, SQL or driver text leaves the server.
 */
export function handleError(error: FastifyError | Error, request: FastifyRequest, reply: FastifyReply) {
  const known = toHttpError(error)
  if (known) {
    if (known.status >= 500) request.log.warn({ err: error }, 'store unavailable; answered 503')
    return send(reply, known)
  }
  const status = 'statusCode' in error && typeof error.statusCode === 'number' ? error.statusCode : 500
  if (status < 500) {
    const code = 'code' in error && typeof error.code === 'string' ? error.code : 'bad_request'
    return send(reply, new HttpError(status, code, error.message))
  }
  request.log.error({ err: error }, 'unhandled error')
  return send(reply, new HttpError(500, 'internal_error', 'Internal server error', { hint: 'Please try again.' }))
}

function toHttpError(error: FastifyError | Error): HttpError | undefined {
  if (error instanceof HttpError) return error
  if (error instanceof StoreUnavailableError) return storeUnavailable()
  const code = 'code' in error ? error.code : undefined
  if (code === 'FST_ERR_CTP_BODY_TOO_LARGE') return payloadTooLarge()
  if (code === 'FST_ERR_CTP_EMPTY_JSON_BODY' || code === 'FST_ERR_CTP_INVALID_JSON_BODY') {
    return new HttpError(400, 'invalid_json', 'The body is empty or not valid JSON')
  }
  return undefined
}

function send(reply: FastifyReply, error: HttpError) {
  return reply.code(error.status).headers(error.headers).type('application/json; charset=utf-8').send(error.body())
}

/**
 * Bytes that are not HTTP never reach a route: Node reports them as a client error. They get the
 * same JSON shape as every other error, then the connection is closed.
 */
export function handleClientError(error: NodeJS.ErrnoException, socket: Duplex) {
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

/**
 * A route schema's refusal in words that name the field (`querystring/from: unknown field`,
 * `body/segment/countries/0 must be equal to one of the allowed values`); Fastify answers it 400.
 */
export function formatSchemaErrors(errors: FastifySchemaValidationError[], dataVar: string): Error {
  const text = errors.map((error) => {
    const at = `${dataVar}${error.instancePath}`
    const extra = (error.params as { additionalProperty?: unknown }).additionalProperty
    return typeof extra === 'string' ? `${at}/${extra}: unknown field` : `${at} ${error.message ?? 'is not valid'}`
  })
  return new Error(text.join(', '))
}
