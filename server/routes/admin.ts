// The operators' API (/admin/api), registered only when ADMIN_TOKEN is set. Every request needs
// `Authorization: Bearer <ADMIN_TOKEN>`; failed attempts are counted per address (the store's
// counters: every instance counts together on PostgreSQL) and logged without what was sent.
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { Readable } from 'node:stream'
import { clientKey } from '../client-key.js'
import { exportChunks, signUps } from '../export.js'
import { PostgrestError } from '../postgrest.js'
import { sameSecret } from '../secrets.js'
import type { WindowCounters } from '../store/counters.js'

/** Ten wrong tokens per address per quarter of an hour; then the address is locked out. */
const FAILURES_ALLOWED = 10
const FAILURE_WINDOW_MS = 15 * 60_000
const MAX_PAGE = 100

function lockedOut(resetMs: number) {
  const seconds = Math.max(1, Math.ceil(resetMs / 1000))
  return new PostgrestError(429, 'too_many_attempts', 'Too many attempts', {
    hint: `Retry after ${seconds} seconds`,
    headers: { 'retry-after': String(seconds) },
  })
}

export async function adminRoutes(app: FastifyInstance, { token, counters }: { token: string; counters: WindowCounters }) {
  app.addHook('onRequest', async (request: FastifyRequest, reply) => {
    reply.headers({ 'cache-control': 'no-store', 'x-robots-tag': 'noindex, nofollow' })
    const key = `admin:${clientKey(request.ip)}`
    // Checked before the token: while an address is locked out, the right token is refused too,
    // so guessing stops and no answer tells a guesser that a guess was right.
    const failures = await counters.peek(key)
    if (failures.hits >= FAILURES_ALLOWED) throw lockedOut(failures.resetMs)
    const sent = /^Bearer\s+(.+)$/i.exec(request.headers.authorization ?? '')?.[1]
    if (sent !== undefined && sameSecret(sent, token)) return
    const [counted] = await counters.hit([{ key, windowMs: FAILURE_WINDOW_MS }])
    request.log.warn({ req: request }, 'admin: refused a request without the right token')
    if (counted && counted.hits > FAILURES_ALLOWED) throw lockedOut(counted.resetMs)
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
