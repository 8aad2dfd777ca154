// The operators' page (/admin, an app with one route per view) and its API (/admin/api), for the
// team (docs/decisions/017-the-team.md): every API route names the permission it needs, and the
// gate (server/team/auth.ts) checks the caller's session, API token or ADMIN_TOKEN against it.
import cookie from '@fastify/cookie'
import type { FastifyInstance } from 'fastify'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { ADMIN_API_PREFIX, ADMIN_PAGE_PATH } from '../../contract/paths.js'
import type { MailOverview, SignupsPage } from '../../contract/admin-api.js'
import type { Config } from '../config.js'
import { listLocalMails, readLocalMail } from '../mail/local-mailbox.js'
import { campaignRoutes } from './campaign-routes.js'
import { growthRoutes } from './growth-routes.js'
import { breedRoutes } from '../breeds/routes.js'
import { suppressionRoutes } from '../mail/suppression-routes.js'
import { deliverabilityRoutes } from '../mail/deliverability-routes.js'
import { HttpError } from '../http/errors.js'
import { exportChunks, signUps } from './export.js'
import { auditOf, teamGate } from '../team/auth.js'
import { webhookRoutes } from '../webhooks/routes.js'
import { partnerAdminRoutes } from '../partners/admin-routes.js'
import type { VisitorPages } from '../visitor/pages.js'
import { importRoutes } from '../imports/routes.js'
import { sessionRoutes } from '../team/session-routes.js'
import { signInPage } from '../team/sign-in-page.js'
import { teamRoutes } from '../team/team-routes.js'
import { storeUrlsOf } from '../handoff/links.js'

const MAX_PAGE = 100

type AdminConfig = Pick<
  Config,
  'MAIL_DIR' | 'MAIL_FROM' | 'APP_STORE_URL' | 'PLAY_STORE_URL' | 'ADMIN_TOKEN' | 'SITE_URL' | 'WEBHOOK_ALLOW_PRIVATE' | 'IMPORT_MAX_BYTES'
>

/**
 * The page (built into `pageRoot`, rendered in the browser: every path under /admin but the API
 * and the sign-in links is one of its views) and the API; neither is for search engines.
 */
export async function adminRoutes(
  app: FastifyInstance,
  { pageRoot, config, pages }: { pageRoot: string; config: AdminConfig; pages: VisitorPages | undefined },
) {
  await app.register(cookie)
  const pagePath = join(pageRoot, 'admin.html')
  if (existsSync(pagePath)) {
    const html = readFileSync(pagePath, 'utf8')
    const send = (_request: unknown, reply: import('fastify').FastifyReply) =>
      reply.type('text/html; charset=utf-8').header('x-robots-tag', 'noindex, nofollow').header('cache-control', 'no-store').send(html)
    app.get(ADMIN_PAGE_PATH, send)
    app.get(`${ADMIN_PAGE_PATH}/*`, (request, reply) => {
      // An unknown API path is the API's 404, not the page.
      if (request.url.startsWith(`${ADMIN_API_PREFIX}/`) || request.url === ADMIN_API_PREFIX)
        throw new HttpError(404, 'not_found', `No admin API route ${request.method} ${request.url.split('?')[0]}`)
      return send(request, reply)
    })
  }
  await app.register(signInPage)
  await app.register(adminApi, { prefix: ADMIN_API_PREFIX, config, pages })
}

/** How many local mails the admin page lists. */
const LOCAL_MAILS_LISTED = 50

async function adminApi(app: FastifyInstance, { config, pages }: { config: AdminConfig; pages: VisitorPages | undefined }) {
  const mailDir = config.MAIL_DIR
  teamGate(app, config.ADMIN_TOKEN)
  const siteConfigured = config.SITE_URL !== undefined
  await app.register(sessionRoutes, { siteConfigured })
  await app.register(teamRoutes, { siteConfigured })

  app.get('/stats', { config: { permission: 'figures:read' } }, async () => app.store.stats())
  await app.register(campaignRoutes, {
    stores: storeUrlsOf(config),
    mailFrom: config.MAIL_FROM,
  })
  await app.register(growthRoutes)
  await app.register(breedRoutes)
  await app.register(suppressionRoutes)
  await app.register(deliverabilityRoutes)
  await app.register(webhookRoutes, { allowPrivate: config.WEBHOOK_ALLOW_PRIVATE })
  await app.register(partnerAdminRoutes, { pages })
  await app.register(importRoutes, { maxBytes: config.IMPORT_MAX_BYTES })

  app.get('/mail', { config: { permission: 'mail:read' } }, async (): Promise<MailOverview> => {
    const files = app.transport.kind === 'files'
    return {
      ...(await app.store.outbox.figures()),
      transport: app.transport.kind,
      local: files ? await listLocalMails(mailDir, LOCAL_MAILS_LISTED) : [],
    }
  })

  app.get<{ Params: { name: string } }>('/mail/local/:name', { config: { permission: 'mail:read' } }, async (request) => {
    const mail = app.transport.kind === 'files' ? await readLocalMail(mailDir, request.params.name) : undefined
    if (!mail) throw new HttpError(404, 'not_found', 'No such local mail')
    return mail
  })

  app.get(
    '/signups',
    {
      config: { permission: 'signups:read' },
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

  app.get('/export.csv', { config: { permission: 'signups:export', recent: true } }, async (request, reply) => {
    const day = new Date().toISOString().slice(0, 10)
    // Recorded before the first row leaves: an export the log does not know of never happens.
    await app.store.team.audit(auditOf(request, 'signups exported', null, { rows: await app.store.count() }))
    return reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="kennect-waitlist-${day}.csv"`)
      .send(Readable.from(exportChunks(signUps(app.store), 'csv')))
  })

  app.delete(
    '/signups',
    {
      config: { permission: 'signups:delete', recent: true },
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
      const removed = await app.store.remove((request.query as { email: string }).email, (id) =>
        auditOf(request, 'signup deleted', `signup ${id}`),
      )
      if (removed) app.waiting.changed()
      // Logged without the address: logs keep none.
      request.log.info({ removed }, 'admin: removal of a sign-up')
      return { removed }
    },
  )
}
