// The server's logs: JSON lines (pino), one per request, with its id, method, path and status.
// No IP address, no header or query value, no body, no route parameter but ids; a secret, an e-mail
// or IP address typed into an unknown path or a parameter's name is redacted (redact.ts), whatever
// punctuation stands around it.
import { type FastifyBaseLogger, type FastifyReply, type FastifyRequest, LogController } from 'fastify'
import pino from 'pino'
import type { Config } from '../config.js'
import { redactName, redactPath, routePath } from './redact.js'

/**
 * What a request's log line says of it: method, path (a matched route's pattern with ids only, or
 * an unknown path redacted), and the names of its query parameters.
 */
export function serializeRequest(request: FastifyRequest) {
  const [path = '', query] = request.url.split('?', 2)
  const params = query ? [...new URLSearchParams(query).keys()].map(redactName) : []
  const pattern = request.routeOptions.url
  // A wildcard route (the static files) has no named parameter to go by: its path is redacted.
  const logged = pattern && !pattern.includes('*') ? routePath(pattern, request.params) : redactPath(path)
  return { method: request.method, path: logged, ...(params.length > 0 ? { params } : {}) }
}

export interface Logger {
  /** For Fastify's `loggerInstance`. */
  instance: FastifyBaseLogger
  /** Writes what is buffered (on close). */
  flush: () => void
}

/**
 * Lines are formatted on the request's thread and written to stdout by pino's file transport on
 * a thread of its own: the event loop hands each line over in memory instead of waiting on
 * writes (docs/performance.md, issue 23: 17,370-17,563 -> 18,422-19,763 sign-ups a second against
 * lines written from the event loop through the thread pool). Closing the app flushes them, and
 * so does pino when the process exits. (A crash may lose the last lines, never a sign-up.)
 */
export function createLogger(config: Pick<Config, 'LOG_LEVEL'>): Logger {
  const stream = pino.transport({ target: 'pino/file', options: { destination: 1 } })
  const logger = pino({ level: config.LOG_LEVEL, serializers: { req: serializeRequest } }, stream)
  // pino's Logger carries its option types; Fastify's instance type wants its base logger.
  return { instance: logger as FastifyBaseLogger, flush: () => stream.flushSync() }
}

/**
 * One log line per request, when it is answered. Fastify's default writes two lines and, for an
 * unknown route, the raw URL with its query string, which can hold a key or an address.
 */
export class RequestLog extends LogController {
  override incomingRequest(request: FastifyRequest): void {
    request.log.debug({ req: request }, 'request received')
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const line = { req: request, status: reply.statusCode, ms: Math.round(reply.elapsedTime * 10) / 10 }
    if (error) reply.log.error({ ...line, err: error }, 'request failed')
    else reply.log.info(line, 'request')
  }

  override routeNotFound(request: FastifyRequest): void {
    request.log.debug({ req: request }, 'no such route')
  }
}
