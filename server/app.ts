// The app: its services, then its plugins in order. It never listens (server/main.ts does).
import { PUBLIC_SETTINGS_KEY, type PublicSettings } from './mail/public-settings.js'
import Fastify, { type FastifyInstance } from 'fastify'
import { randomUUID } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { LOCALES, localePath } from '../contract/locales.js'
import { REST_PREFIX } from '../contract/paths.js'
import type { Config } from './config.js'
import { formatSchemaErrors, handleClientError, handleError } from './http/errors.js'
import { buildValidator } from './http/validators.js'
import { healthRoutes } from './http/health.js'
import { landingPage, noWords, readLandingTemplate, readLandingWords } from './http/landing-page.js'
import { createLogger, RequestLog } from './http/logging.js'
import { notFoundHandler } from './http/not-found.js'
import security, { inlineScriptSources } from './http/security.js'
import { staticFiles } from './http/static-files.js'
import { addressedFiles, builtSiteUrl } from './http/site-address.js'
import { campaignRenderer, createComposer } from './mail/compose.js'
import { createMailWorker, type MailWorker, type RetryPolicy } from './mail/outbox-worker.js'
import { createWebhookWorker, type WebhookWorker } from './webhooks/worker.js'
import { createTransport, type Transport } from './mail/transport.js'
import { adminRoutes } from './operators/admin-routes.js'
import type { AdminApiRoute } from './team/auth.js'
import { clientDir, landingWordsPath, visitorDir } from './paths.js'
import { createLaunchMeters, type LaunchMeters, launchRoutes } from './growth/launch.js'
import { readBreedName } from './breeds/catalogue.js'
import { dkimKey } from './mail/dkim.js'
import { sendgridKey } from './mail/sendgrid.js'
import { providerHooks, withPostmarkMetadata } from './mail/provider-hooks.js'
import { createSuppressions, type Suppressions, withReturnPath } from './mail/suppression.js'
import { type BreedMeters, createBreedMeters } from './breeds/meters.js'
import { createViewCounter, type ViewCounter } from './growth/views.js'
import { createWaitingTotal, type WaitingTotal } from './growth/waiting.js'
import { loadVisitorPages } from './visitor/pages.js'
import { visitorRoutes } from './visitor/routes.js'
import { handOffRoutes } from './handoff/routes.js'
import { embedRoutes } from './partners/embed-routes.js'
import { storeUrlsOf } from './handoff/links.js'
import { createStore, type WaitlistStore } from './store/index.js'
import type { RowRules } from './waitlist/check-row.js'
import { disposableDomainCheck } from './waitlist/disposable.js'
import { type FormTokens, formTokens } from './waitlist/form-token.js'
import { joinRoute } from './waitlist/join-route.js'
import { createInsertLimiter, type InsertLimiter } from './waitlist/limiter.js'
import { postgrestRoutes } from './waitlist/postgrest-route.js'

/** The services every route may use, decorated on the app in buildApp and nowhere else. */
declare module 'fastify' {
  interface FastifyInstance {
    store: WaitlistStore
    /** The per-IP limits on sign-ups, shared by both ways in. */
    insertLimiter: InsertLimiter
    /** The no-script form's signed timestamps. */
    formTokens: FormTokens
    /** What checkRow needs beside the row (BLOCK_DISPOSABLE_EMAIL). */
    rowRules: RowRules
    /** The outbox's worker: `nudge()` after queuing mail, so it goes out now, not at the next look. */
    mailer: Pick<MailWorker, 'nudge'>
    /** The webhooks' worker: `nudge()` after queuing a test or a resend. */
    webhooks: Pick<WebhookWorker, 'nudge'>
    /** How mail leaves (SMTP, or files in MAIL_DIR). */
    transport: Transport
    /** The public address links start with: SITE_URL, or where the server listens. */
    siteUrl: () => string
    /** Every route of the admin API with what it needs (filled as they register; docs and tests read it). */
    adminApiRoutes: AdminApiRoute[]
    /** The product's name, as the page was built with it (mails say it too). */
    productName: string
    /** The landing page's views, counted as they are sent (COUNT_PAGE_VIEWS). */
    views: ViewCounter
    /** How many confirmed sign-ups wait, for the landing page's hero. */
    waiting: WaitingTotal
    /** Each country's launch meter. */
    launch: LaunchMeters
    /** Each breed's meter per country. */
    breedMeters: BreedMeters
    /** Bounces, complaints and the suppression list. */
    suppressions: Suppressions
  }
}

/**
 * Addresses, CIDRs or proxy-addr's names (`loopback`) are checked against the connecting peer.
 * A hop count cannot check it, so Fastify now refuses one; we keep DESIGN's hop count as an
 * explicit rule (trust the nearest N addresses), safe only when the port is reachable solely
 * through the proxy (docs/deployment.md).
 */
function trustProxy(setting: boolean | number | string): boolean | string | ((address: string, hop: number) => boolean) {
  if (typeof setting !== 'number') return setting
  return (_address, hop) => hop < setting
}

/** How long the audit log keeps a line. */
export const AUDIT_KEPT_MS = 365 * 24 * 60 * 60_000

export interface AppOptions {
  /** false silences the logs (tests); default: the level in config. */
  logger?: boolean
  /** Where the built page lives; default dist/client. */
  pageRoot?: string
  /** The outbox's retry schedule (RETRY unless told: a test of an outage runs it faster, in proportion). */
  mailRetry?: RetryPolicy
}

/** Whether the server only listens on this machine (127.0.0.0/8, ::1). */
const isLoopback = (address: string) => address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.')

export async function buildApp(config: Config, options: AppOptions = {}): Promise<FastifyInstance> {
  const logger = options.logger === false ? undefined : createLogger(config)
  const pageRoot = options.pageRoot ?? clientDir
  const app = Fastify({
    loggerInstance: logger?.instance,
    genReqId: () => randomUUID(),
    logController: new RequestLog(),
    // Slow or stalled clients cannot hold a connection open for long.
    requestTimeout: 15_000,
    connectionTimeout: 15_000,
    keepAliveTimeout: 10_000,
    return503OnClosing: true,
    clientErrorHandler: handleClientError,
    // A field a schema does not know is an error to report, not something to drop silently.
    ajv: { customOptions: { removeAdditional: false } },
    schemaController: { compilersFactory: { buildValidator } },
    schemaErrorFormatter: formatSchemaErrors,
    ...(config.TRUST_PROXY !== undefined ? { trustProxy: trustProxy(config.TRUST_PROXY) } : {}),
  })
  // The id every log line of the request carries, so support can find a visitor's request.
  // A callback, not an async function: it runs on every answer (docs/performance.md, issue 23).
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('x-request-id', request.id)
    done(null, payload)
  })
  if (logger) app.addHook('onClose', () => logger.flush())
  app.setErrorHandler(handleError)

  // Services. Whoever opens a resource closes it: the worker stops before the store closes.
  const store = await createStore(config, app.log)
  // Breed names copied by a migration are read by the catalogue once (docs/breeds.md).
  const copiedBreeds = await store.breeds.readCopied(readBreedName)
  if (copiedBreeds > 0) app.log.info({ names: copiedBreeds }, 'breeds: names copied from earlier profiles read by the catalogue')
  const transport = createTransport(
    config.SMTP_URL,
    config.MAIL_DIR,
    dkimKey(config.DKIM_PRIVATE_KEY, config.DKIM_SELECTOR, config.MAIL_FROM),
  )
  const visitorPages = await loadVisitorPages(visitorDir)
  const productName = visitorPages?.site.productName ?? 'Kennect'
  let listeningAt = `http://localhost:${config.PORT}`
  const siteUrl = () => config.SITE_URL ?? listeningAt
  const storeUrls = storeUrlsOf(config)
  const suppressions = createSuppressions(store.suppressions, {
    bounceRate: config.CAMPAIGN_PAUSE_BOUNCE_RATE,
    complaintRate: config.CAMPAIGN_PAUSE_COMPLAINT_RATE,
  })
  const mailer = createMailWorker({
    store,
    transport,
    suppressions,
    compose: withReturnPath(
      config.MAIL_RETURN_PATH,
      suppressions,
      withPostmarkMetadata(
        config.POSTMARK_WEBHOOK_AUTH !== undefined,
        createComposer({
          mailFrom: config.MAIL_FROM,
          product: productName,
          siteUrl,
          campaign: campaignRenderer(store, storeUrls, siteUrl),
        }),
      ),
    ),
    log: app.log,
    ratePerSecond: config.MAIL_RATE_PER_SECOND,
    ...(options.mailRetry ? { retry: options.mailRetry } : {}),
  })
  app.addHook('onListen', async () => {
    const address = app.server.address()
    if (address && typeof address === 'object') {
      // Listening on every address: this machine's name for itself is the one to link to.
      // A loopback address is `localhost` too: passkeys refuse an IP address as their site.
      const host = ['0.0.0.0', '::', '127.0.0.1', '::1'].includes(address.address) ? 'localhost' : address.address
      listeningAt = `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`
      // Reachable from elsewhere, but its pages, mails and links would name this machine.
      if (config.SITE_URL === undefined && !isLoopback(address.address)) {
        app.log.warn(
          { host: address.address, siteUrl: listeningAt },
          `SITE_URL is not set, and the server listens beyond this machine: pages, mails and links say ${listeningAt}; set SITE_URL to the public https address`,
        )
      }
    }
    mailer.start()
    webhooks.start()
    // What the command line previews campaigns with (public-settings.ts): this start's own.
    const settings: PublicSettings = { siteUrl: siteUrl(), ...storeUrls, recordedAt: new Date().toISOString() }
    await store.settings
      .write(PUBLIC_SETTINGS_KEY, settings)
      .catch((error: unknown) => app.log.warn({ err: error }, 'could not record the public settings for the command line'))
  })
  const webhooks = createWebhookWorker({
    store,
    log: app.log,
    allowPrivate: config.WEBHOOK_ALLOW_PRIVATE,
    retryScale: config.WEBHOOK_RETRY_SCALE,
    // The owners' mails were queued with the change: send them now.
    onDisabled: async () => mailer.nudge(),
  })
  const views = createViewCounter({ growth: store.growth, log: app.log, enabled: config.COUNT_PAGE_VIEWS })
  // The audit log keeps a year (docs/decisions/017-the-team.md): older lines go, hourly.
  const keepAuditYear = () =>
    store.team
      .purgeAudit(new Date(Date.now() - AUDIT_KEPT_MS).toISOString(), {
        actorId: null,
        actor: 'retention',
        action: 'audit purged',
        target: null,
        detail: null,
        requestId: null,
      })
      .catch((error: unknown) => app.log.warn({ err: error }, 'audit log: the year-old lines were not purged; next hour again'))
  const auditRetention = setInterval(() => void keepAuditYear(), 60 * 60_000).unref()
  app.addHook('onListen', async () => void keepAuditYear())
  app.addHook('onClose', async () => {
    clearInterval(auditRetention)
    await views.close() // the views of the last second are written before the store closes
    await Promise.all([mailer.stop(), webhooks.stop()])
    transport.close()
    await store.close()
  })
  app.decorate('store', store)
  app.decorate('mailer', mailer)
  app.decorate('webhooks', webhooks)
  app.decorate('transport', transport)
  app.decorate('siteUrl', siteUrl)
  app.decorate('adminApiRoutes', [] as AdminApiRoute[])
  app.decorate('productName', productName)
  app.decorate('views', views)
  app.decorate('waiting', createWaitingTotal(store.growth, app.log))
  const breedMeters = createBreedMeters(store.breeds)
  app.decorate('breedMeters', breedMeters)
  app.decorate('suppressions', suppressions)
  app.decorate('launch', createLaunchMeters(store.growth, breedMeters, store.settings))
  app.decorate('insertLimiter', createInsertLimiter(config, store.counters))
  app.decorate('formTokens', formTokens(config.FORM_SECRET, config.FORM_MIN_SECONDS * 1000))
  app.decorate('rowRules', { blockedDomain: config.BLOCK_DISPOSABLE_EMAIL ? disposableDomainCheck() : undefined })

  // Plugins, in this order: headers for all, the API, the form, health, operators, the page.
  const page = join(pageRoot, 'index.html')
  await app.register(security, { config, scriptSources: existsSync(page) ? inlineScriptSources(readFileSync(page, 'utf8')) : [] })
  await app.register(postgrestRoutes, { prefix: REST_PREFIX, anonKey: config.WAITLIST_ANON_KEY })
  await app.register(joinRoute)
  await app.register(healthRoutes)
  await app.register(launchRoutes)
  await app.register(providerHooks, {
    postmarkAuth: config.POSTMARK_WEBHOOK_AUTH,
    mailgunKey: config.MAILGUN_WEBHOOK_SIGNING_KEY,
    sendgridKey:
      config.SENDGRID_WEBHOOK_PUBLIC_KEY === undefined ? undefined : (sendgridKey(config.SENDGRID_WEBHOOK_PUBLIC_KEY) ?? undefined),
    ses:
      config.SES_SNS_TOPIC_ARN === undefined
        ? undefined
        : { topicArn: config.SES_SNS_TOPIC_ARN, certUrlPattern: config.SNS_CERT_URL_PATTERN },
  })
  // Into the app: the .well-known files, the app links' page, and the app's claim.
  await app.register(handOffRoutes, {
    pages: visitorPages,
    stores: storeUrls,
    iosAppId: config.IOS_APP_ID,
    android:
      config.ANDROID_PACKAGE === undefined || config.ANDROID_CERT_SHA256 === undefined
        ? undefined
        : { packageName: config.ANDROID_PACKAGE, fingerprints: config.ANDROID_CERT_SHA256 },
    adminToken: config.ADMIN_TOKEN,
  })
  const notFound = notFoundHandler(pageRoot)
  if (visitorPages) {
    await app.register(visitorRoutes, { pages: visitorPages })
    // A partner's embed: its session, iframe form and join (its words and meter come from the same build).
    await app.register(embedRoutes, { pages: visitorPages, notFound })
  } else app.log.warn({ visitorDir }, "no built visitor's page found: run `npm run build`; /me links and partners' embeds answer 404")
  await app.register(adminRoutes, { pageRoot, config, pages: visitorPages })
  if (existsSync(pageRoot)) {
    // A page built for our server has a form token slot; one built for Supabase has none.
    // One page per language; a page built for another backend has no slots and is served as a file.
    const words = readLandingWords(landingWordsPath)
    const pages = LOCALES.flatMap((locale) => {
      const path = localePath(locale)
      const template = readLandingTemplate(join(pageRoot, path))
      return template ? [{ path, template, words: words[path] ?? noWords(locale) }] : []
    })
    if (pages.length > 0 && Object.keys(words).length === 0)
      app.log.warn({ landingWordsPath }, 'the landing pages have no words for their slots: run `npm run build`')
    if (pages.length > 0) {
      // The address the build wrote into its pages, read once (every page names the same one).
      const built = builtSiteUrl(pages[0]?.template.parts.join('') ?? '')
      await app.register(landingPage, { pages, built, playStore: config.PLAY_STORE_URL !== undefined })
      await app.register(addressedFiles, { root: pageRoot, built })
    }
    await app.register(staticFiles, { root: pageRoot, landingPageServed: pages.length > 0 })
  } else {
    app.log.warn({ pageRoot }, 'no built page found: run `npm run build`; serving the API only')
  }
  app.setNotFoundHandler(notFound)
  return app
}
