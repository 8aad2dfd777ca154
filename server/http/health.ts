import type { FastifyInstance } from 'fastify'

export async function healthRoutes(app: FastifyInstance) {
  // Liveness: the process answers. Readiness: the store answers too (load balancers route on it).
  app.get('/healthz', async () => ({ status: 'ok' }))
  app.get('/readyz', async (request, reply) => {
    try {
      await app.store.ping()
      return { status: 'ready' }
    } catch (error) {
      request.log.warn({ err: error }, 'readiness check failed')
      return reply.code(503).send({ status: 'unavailable' })
    }
  })
}
