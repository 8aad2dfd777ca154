import { type FastifyReply, type FastifyRequest, LogController } from 'fastify'

/**
 * One log line per request, when it is answered, with the request id, method, path, status and
 * time (the `req` serializer in app.ts keeps values of query parameters, headers and IP addresses
 * out). Fastify's default writes two lines and, for an unknown route, the raw URL with its query
 * string, which can hold a key or an address.
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
