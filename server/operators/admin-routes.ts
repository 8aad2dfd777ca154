// The operators' page (/admin) and its API (/admin/api), registered only when ADMIN_TOKEN is set.
// Every API request needs `Authorization: Bearer <ADMIN_TOKEN>`; failed attempts are counted per
// address (the store's counters: every instance counts together on PostgreSQL) and logged without
// what was sent.
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { ADMIN_API_PREFIX, ADMIN_PAGE_PATH } from '../../contract/paths.js'
import type { MailOverview, SignupsPage } from '../../contract/admin-api.js'
import type { Config } from '../config.js'
import { listLocalMails, readLocalMail } from '../mail/local-mailbox.js'
import { campaignRoutes } from './campaign-routes.js'
import { growthRoutes } from './growth-routes.js'
import { HttpError } from '../http/errors.js'
import { sameSecret } from '../secrets.js'
import { clientKey } from '../waitlist/client-key.js'
import { exportChunks, signUps } from './export.js'

/** Ten wrong tokens per address per quarter of an hour; then the address is locked out. */
const FAILURES_ALLOWED = 10
const FAILURE_WINDOW_MS = 15 * 60_000
const MAX_PAGE = 100

function lockedOut(resetMs: number) {
  const seconds = Math.max(1, Math.ceil(resetMs / 1000))
  return new HttpError(429, 'too_many_attempts', 'Too many attempts', {
    hint: `Retry after ${seconds} seconds`,
    headers: { 'retry-after': String(seconds) },
  })
}

/**
 * The page (built into `pageRoot`, rendered in the browser) and the API; the page exists only
 * where the API does, and neither is for search engines.
 */
export async function adminRoutes(
  app: FastifyInstance,
  { token, pageRoot, config }: { token: string; pageRoot: string; config: Pick<Config, 'MAIL_DIR' | 'MAIL_FROM' | 'APP_STORE_URL'> },
) {
  const pagePath = join(pageRoot, 'admin.html')
  if (existsSync(pagePath)) {
    const html = readFileSync(pagePath, 'utf8')
    app.get(ADMIN_PAGE_PATH, (_request, reply) =>
      reply.type('text/html; charset=utf-8').header('x-robots-tag', 'noindex, nofollow').header('cache-control', 'no-store').send(html),
    )
  }
  await app.register(adminApi, { prefix: ADMIN_API_PREFIX, token, config })
}

/** How many local mails the admin page lists. */
const LOCAL_MAILS_LISTED = 50

async function adminApi(
  app: FastifyInstance,
  { token, config }: { token: string; config: Pick<Config, 'MAIL_DIR' | 'MAIL_FROM' | 'APP_STORE_URL'> },
) {
  const mailDir = config.MAIL_DIR
  const { counters } = app.store
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
    throw new HttpError(401, 'unauthorized', 'The admin token is missing or wrong', { headers: { 'www-authenticate': 'Bearer' } })
  })

  app.get('/stats', async () => app.store.stats())
  await app.register(campaignRoutes, { appStoreUrl: config.APP_STORE_URL, mailFrom: config.MAIL_FROM })
  await app.register(growthRoutes)

  app.get('/mail', async (): Promise<MailOverview> => {
    const files = app.transport.kind === 'files'
    return {
      outbox: await app.store.outbox.counts(),
      transport: app.transport.kind,
      local: files ? await listLocalMails(mailDir, LOCAL_MAILS_LISTED) : [],
    }
  })

  app.get<{ Params: { name: string } }>('/mail/local/:name', async (request) => {
    const mail = app.transport.kind === 'files' ? await readLocalMail(mailDir, request.params.name) : undefined
    if (!mail) throw new HttpError(404, 'not_found', 'No such local mail')
    return mail
  })

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
      return { items, next: items.length === limit ? (items.at(-1)?.id ?? null) : null } satisfies SignupsPage
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
      if (removed) app.waiting.changed()
      // Logged without the address: logs keep none.
      request.log.info({ removed }, 'admin: removal of a sign-up')
      return { removed }
    },
  )
}
