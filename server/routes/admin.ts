// The operators' API (/admin/api), registered only when ADMIN_TOKEN is set. Every request needs
// `Authorization: Bearer <ADMIN_TOKEN>`; failed attempts are limited per address and logged
// without what was sent.
import rateLimit from '@fastify/rate-limit'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { Readable } from 'node:stream'
import { exportChunks, signUps } from '../export.js'
import { PostgrestError } from '../postgrest.js'
import { sameSecret } from '../secrets.js'

/** Ten wrong tokens per address per quarter of an hour. */
const FAILURES_ALLOWED = 10
const FAILURE_WINDOW_MS = 15 * 60_000
const MAX_PAGE = 100

export async function adminRoutes(app: FastifyInstance, { token }: { token: string }) {
  await app.register(rateLimit, { global: false })
  const countFailure = app.createRateLimit({ max: FAILURES_ALLOWED, timeWindow: FAILURE_WINDOW_MS, keyGenerator: (request) => request.ip })

  app.addHook('onRequest', async (request: FastifyRequest, reply) => {
    reply.headers({ 'cache-control': 'no-store', 'x-robots-tag': 'noindex, nofollow' })
    const sent = /^Bearer\s+(.+)$/i.exec(request.headers.authorization ?? '')?.[1]
    if (sent !== undefined && sameSecret(sent, token)) return
    const failures = await countFailure(request)
    request.log.warn({ req: request }, 'admin: refused a request without the right token')
    if (!failures.isAllowed && failures.isExceeded) {
      throw new PostgrestError(429, 'too_many_attempts', 'Too many attempts', {
        hint: `Retry after ${failures.ttlInSeconds} seconds`,
        headers: { 'retry-after': String(failures.ttlInSeconds) },
      })
    }
    throw new PostgrestError(401, 'unauthorized', 'The admin token is missing or wrong', { headers: { 'www-authenticate': 'Bearer' } })
  })

  app.get('/stats', async () => app.store.stats())

  app.get(
    '/signups',
    {
      schema: {
        querystring: {
          type: 'object',
          additionalProperties: false,
          properties: {
            search: { type: 'string', maxLength: 254 },
            after: { type: 'integer', minimum: 0 },
            limit: { type: 'integer', minimum: 1, maximum: MAX_PAGE, default: 50 },
          },
        },
      },
    },
    async (request) => {
      const { search, after, limit } = request.query as { search?: string; after?: number; limit: number }
      const items = await app.store.list({ search, afterId: after, limit })
      return { items, next: items.length === limit ? (items.at(-1)?.id ?? null) : null }
    },
  )

  app.get('/export.csv', async (_request, reply) => {
    const day = new Date().toISOString().slice(0, 10)
    return reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="kennect-waitlist-${day}.csv"`)
      .send(Readable.from(exportChunks(signUps(app.store), 'csv')))
  })

  app.delete(
    '/signups',
    {
      schema: {
        querystring: {
          type: 'object',
          additionalProperties: false,
          required: ['email'],
          properties: { email: { type: 'string', minLength: 1, maxLength: 254 } },
        },
      },
    },
    async (request) => {
      const removed = await app.store.remove((request.query as { email: string }).email)
      // Logged without the address: logs keep none.
      request.log.info({ removed }, 'admin: removal of a sign-up')
      return { removed }
    },
  )
}
