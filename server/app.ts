import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyRequest } from 'fastify'
import { randomUUID } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import pino from 'pino'
import type { Config } from './config.js'
import { clientDir } from './paths.js'
import { PostgrestError } from './postgrest.js'
import { redactPersonal } from './redact.js'
import { RequestLog } from './request-log.js'
import { handleClientError, handleError } from './plugins/error-handler.js'
import { page } from './plugins/page.js'
import security from './plugins/security.js'
import { disposableDomainCheck } from './disposable.js'
import { formTokens } from './form-token.js'
import { createInsertRateLimit } from './plugins/insert-rate-limit.js'
import { adminRoutes } from './routes/admin.js'
import { joinRoute } from './routes/join.js'
import { healthRoutes } from './routes/health.js'
import { waitlistRoutes } from './routes/waitlist.js'
import { createStore, type WaitlistStore } from './store/store.js'

declare module 'fastify' {
  interface FastifyInstance {
    store: WaitlistStore
  }
}

/**
 * What a request log line says: method and path, and the names (never the values) of query
 * parameters, which may hold a key or an address. No IP address, no headers, no body; an address
 * typed into the path or a parameter's name is redacted (server/redact.ts).
 */
function serializeRequest(request: FastifyRequest) {
  const [path = '', query] = request.url.split('?', 2)
  const params = query ? [...new URLSearchParams(query).keys()].map(redactPersonal) : []
  return { method: request.method, path: redactPersonal(path), ...(params.length > 0 ? { params } : {}) }
}

/**
 * Addresses, CIDRs or proxy-addr's names (`loopback`) are checked against the connecting peer.
 * A hop count cannot check it, so Fastify now refuses one; we keep DESIGN's hop count as an
 * explicit rule (trust the nearest N addresses), safe only when the port is reachable solely
 * through the proxy (README, Deployment).
 */
function trustProxy(setting: boolean | number | string): boolean | string | ((address: string, hop: number) => boolean) {
  if (typeof setting !== 'number') return setting
  return (_address, hop) => hop < setting
}

/** The built 404 page (scripts/build.mjs), if this build has one. */
function readNotFoundPage(root: string): string | undefined {
  const path = join(root, '404.html')
  return existsSync(path) ? readFileSync(path, 'utf8') : undefined
}

export interface AppOptions {
  /** false silences the logs (tests); default: the level in config. */
  logger?: boolean
  /** Where the built page lives; default dist/client. */
  pageRoot?: string
}

export async function buildApp(config: Config, options: AppOptions = {}): Promise<FastifyInstance> {
  // Log lines are written asynchronously: under load, the lines that arrive while a write is under
  // way go out together in the next one, instead of one write per line; when quiet, at once.
  // Closing the app flushes them. (A crash may lose the last lines, never a sign-up.)
  const logStream = options.logger === false ? undefined : pino.destination({ dest: 1, sync: false })
  const app = Fastify({
    // pino's Logger carries its option types; Fastify's instance type wants its base logger.
    loggerInstance: logStream
      ? (pino({ level: config.LOG_LEVEL, serializers: { req: serializeRequest } }, logStream) as FastifyBaseLogger)
      : undefined,
    genReqId: () => randomUUID(),
    logController: new RequestLog(),
    // Slow or stalled clients cannot hold a connection open for long.
    requestTimeout: 15_000,
    connectionTimeout: 15_000,
    keepAliveTimeout: 10_000,
    return503OnClosing: true,
    clientErrorHandler: handleClientError,
    ...(config.TRUST_PROXY !== undefined ? { trustProxy: trustProxy(config.TRUST_PROXY) } : {}),
  })
  // The id every log line of the request carries, so support can find a visitor's request.
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id)
  })

  const store = await createStore(config, app.log)
  app.decorate('store', store)
  app.addHook('onClose', () => store.close())
  if (logStream) app.addHook('onClose', () => logStream.flushSync())
  app.setErrorHandler(handleError)

  await app.register(security, { config })
  const limiter = createInsertRateLimit(config, store.counters)
  const blockedDomain = config.BLOCK_DISPOSABLE_EMAIL ? disposableDomainCheck() : undefined
  const tokens = formTokens(config.FORM_SECRET, config.FORM_MIN_SECONDS * 1000)
  await app.register(waitlistRoutes, { prefix: '/rest/v1', config, limiter, blockedDomain })
  await app.register(joinRoute, { limiter, tokens, blockedDomain })
  await app.register(healthRoutes)
  if (config.ADMIN_TOKEN) await app.register(adminRoutes, { prefix: '/admin/api', token: config.ADMIN_TOKEN, counters: store.counters })
  await app.register(page, { root: options.pageRoot ?? clientDir, admin: Boolean(config.ADMIN_TOKEN), tokens })
  // A person's browser gets a page with a way home; API clients (and the API's paths, whoever
  // asks) keep the JSON error, never an HTML or empty 404 (supabase-js reads those as success).
  const notFoundPage = readNotFoundPage(options.pageRoot ?? clientDir)
  app.setNotFoundHandler(async (request, reply) => {
    const api = /^\/(rest|admin\/api)(\/|$)/.test(request.url)
    if (notFoundPage && !api && request.headers.accept?.includes('text/html')) {
      return reply.code(404).type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(notFoundPage)
    }
    throw new PostgrestError(404, 'not_found', `Not found: ${request.method} ${request.url.split('?')[0]}`)
  })
  return app
}
