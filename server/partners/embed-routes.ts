// A partner's embed on its own site (docs/partners.md, docs/decisions/025-partners.md): the
// script's session (the form's token, its words, the meter), the iframe form, and the join all
// three post to. The join is the landing page's join with one more adapter, as /join is: the same
// limiter, honeypot, form token, checkRow, silent duplicates and confirmation mail; it adds the
// partner's key and origins. Requests from an origin that is neither the partner's nor ours are
// refused (403) before anything is counted or stored; an unknown, rotated or disabled key is a 404.
import fastifyCompress from '@fastify/compress'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { createHash } from 'node:crypto'
import { constants } from 'node:zlib'
import { isCountryCode } from '../../contract/countries.js'
import { LOCALE_COLUMN, localePath, type Locale, readLocale } from '../../contract/locales.js'
import {
  ACCENT_PATTERN,
  embedJoinPath,
  embedPath,
  type EmbedMeterView,
  type EmbedOutcome,
  EMBED_OUTCOMES,
  EMBED_PREFIX,
  type EmbedSession,
  type EmbedTheme,
  PARTNER_KEY_PATTERN,
} from '../../contract/partners.js'
import { publicBreedMeter } from '../breeds/meters.js'
import { platformOf } from '../handoff/platform.js'
import { handleError, HttpError, tooMany } from '../http/errors.js'
import { API_SECURITY_HEADERS } from '../http/security.js'
import { type PartnerRecord, StoreUnavailableError, type WaitlistRow } from '../store/types.js'
import type { VisitorPages } from '../visitor/pages.js'
import { checkRow } from '../waitlist/check-row.js'

/** A join is an address and three short fields; anything bigger is not our form's nor our script's. */
const MAX_JOIN_BYTES = 2048
/** The fields a join may carry (EmbedJoin); any other is refused, naming it. */
const JOIN_FIELDS = new Set(['email', LOCALE_COLUMN, 'token', 'website'])
/** How long a browser may keep a preflight's answer. */
const PREFLIGHT_MAX_AGE_S = 3600

type Query = Record<string, string | undefined>

/** How a join came: the script (JSON), the iframe form (a post from our own page), or the partner's plain form. */
type Way = 'script' | 'iframe' | 'form'

const escapeHtml = (text: string) => text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] ?? c)

export interface EmbedRoutesOptions {
  pages: VisitorPages
  /** The site's 404 (its page for a browser, the JSON error otherwise). */
  notFound: (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>
}

export async function embedRoutes(app: FastifyInstance, { pages, notFound }: EmbedRoutesOptions) {
  // The session is JSON of a kilobyte or two: compressed as the page's answers are.
  await app.register(fastifyCompress, {
    global: true,
    encodings: ['br', 'gzip'],
    brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } },
  })
  // The script's JSON, read as text and parsed by the route (its refusals name the field); the
  // forms' urlencoded posts. Anything else is a 415.
  app.removeAllContentTypeParsers()
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: MAX_JOIN_BYTES }, (_request, body, done) =>
    done(null, { json: String(body) }),
  )
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: MAX_JOIN_BYTES }, (_request, body, done) =>
    done(null, new URLSearchParams(String(body))),
  )

  // When the store cannot answer now: a 503 to try again, nothing changed. The script's session and
  // join keep the API's JSON; a page or a form's post (a person's browser, no script) gets the
  // visitor's page that says so, in the form's language.
  app.setErrorHandler((error: Error, request, reply) => {
    const unavailable = error instanceof StoreUnavailableError || (error instanceof HttpError && error.status === 503)
    if (!unavailable) return handleError(error, request, reply)
    reply.header('retry-after', '5')
    const page = request.method === 'GET' && !request.url.split('?')[0]?.endsWith('/session')
    if (!page && !(request.body instanceof URLSearchParams)) return handleError(error, request, reply)
    request.log.warn({ err: error }, 'store unavailable; answered the partner form 503')
    const form = request.body instanceof URLSearchParams ? request.body.get(LOCALE_COLUMN) : undefined
    const locale = readLocale(form ?? (request.query as Query).lang)
    return reply.code(503).type('text/html; charset=utf-8').header('cache-control', 'no-store').send(pages.gone('unavailable', locale))
  })

  /** Our own origins: SITE_URL's (where the iframe's page is), and the one this request reached. */
  const ours = (request: FastifyRequest) => [new URL(app.siteUrl()).origin, `${request.protocol}://${request.host}`]
  /** The request's origin: its Origin, or without one the Referer's ('null' stays 'null': a sandbox, a file). */
  const originOf = (request: FastifyRequest): string | undefined => {
    const origin = request.headers.origin
    if (origin !== undefined) return origin
    const referer = request.headers.referer
    return referer !== undefined && URL.canParse(referer) ? new URL(referer).origin : undefined
  }

  /** The enabled partner of the key in the path, or undefined (answered 404 by the caller). */
  const partnerOf = async (request: FastifyRequest): Promise<PartnerRecord | undefined> => {
    const { key } = request.params as { key: string }
    return PARTNER_KEY_PATTERN.test(key) ? app.store.partners.byKey(key) : undefined
  }
  /** CORS for an allowed origin only: the origin itself (never `*`), no credentials; caches keep answers apart by Origin. */
  const cors = (reply: FastifyReply, origin: string | undefined, ok: boolean) => {
    reply.header('vary', 'Origin')
    if (ok && origin !== undefined)
      reply.header('access-control-allow-origin', origin).header('access-control-expose-headers', 'Retry-After')
  }
  const refused = () => new HttpError(403, 'origin_refused', "This partner's form works only on its own site")

  /** The meter under the form: the visitor's page's for the partner's breed in its country (or its country's), public figures only. */
  async function meterOf(partner: PartnerRecord, locale: Locale): Promise<EmbedMeterView | null> {
    const country = partner.country
    if (country === null || !isCountryCode(country)) return null
    if (partner.breed === null) return { kind: 'country', country, meter: await app.launch.meter(country) }
    const [counted, offsets] = await Promise.all([app.breedMeters.of(country, [partner.breed]), app.launch.figures.offsets()])
    return { kind: 'breed', country, meter: publicBreedMeter(counted, partner.breed, country, locale, offsets) }
  }
  const privacyUrl = (locale: Locale) => `${app.siteUrl()}${localePath(locale)}#privacy`

  // A route's own headers: no CORS nor helmet from the site's defaults (security.ts), which are the page's.
  const own = { config: { cors: false }, helmet: false } as const

  app.get(`${EMBED_PREFIX}/:key/session`, own, async (request, reply): Promise<EmbedSession | undefined> => {
    reply.headers(API_SECURITY_HEADERS).header('cache-control', 'no-store')
    const partner = await partnerOf(request)
    if (!partner) throw new HttpError(404, 'not_found', 'No such partner key')
    // A page of another site may not read it; a request without Origin (the same origin, a tool) may.
    const origin = request.headers.origin
    const ok = origin === undefined || allowedFrom(request, partner, origin)
    cors(reply, origin, ok)
    if (!ok) throw refused()
    const query = request.query as Query
    const locale = readLocale(query.lang)
    const meter = query.meter === 'off' ? null : await meterOf(partner, locale)
    return {
      product: app.productName,
      locale,
      token: app.formTokens.issue(),
      readyInMs: app.formTokens.minAgeMs,
      words: pages.embed.words(locale),
      privacyUrl: privacyUrl(locale),
      meter: meter && pages.embed.meter(meter, locale),
    }
  })

  // The script's JSON join asks first: only the partner's origins (and ours) are told yes.
  app.options(`${EMBED_PREFIX}/:key/join`, own, async (request, reply) => {
    const partner = await partnerOf(request)
    const origin = request.headers.origin
    const ok = partner !== undefined && allowedFrom(request, partner, origin)
    cors(reply, origin, ok)
    if (ok)
      reply
        .header('access-control-allow-methods', 'POST')
        .header('access-control-allow-headers', 'Content-Type')
        .header('access-control-max-age', String(PREFLIGHT_MAX_AGE_S))
    return reply.code(204).send()
  })

  app.post(`${EMBED_PREFIX}/:key/join`, own, async (request, reply) => {
    reply.headers(API_SECURITY_HEADERS).header('cache-control', 'no-store')
    const partner = await partnerOf(request)
    const origin = originOf(request)
    const ok = partner !== undefined && allowedFrom(request, partner, origin)
    cors(reply, origin, ok)
    if (!partner) throw new HttpError(404, 'not_found', 'No such partner key')
    if (!ok || origin === undefined) throw refused()
    const body = request.body as URLSearchParams | { json: string } | undefined
    if (body === undefined || !(body instanceof URLSearchParams)) return joinByScript(request, reply, partner, origin, body?.json)
    const way: Way = ours(request).includes(origin) ? 'iframe' : 'form'
    const fields = Object.fromEntries(body)
    const locale = readLocale(fields[LOCALE_COLUMN])
    const outcome = await joinFromForm(request, reply, partner, way, origin, fields)
    // The partner's own form: its thank-you address, or ours in the form's language. The iframe: its own page again.
    const query = new URLSearchParams({ lang: locale, sent: outcome })
    const look = request.query as Query
    if (look.theme === 'light' || look.theme === 'dark') query.set('theme', look.theme)
    if (look.accent !== undefined && ACCENT_PATTERN.test(look.accent)) query.set('accent', look.accent)
    const ourPage = `${embedPath(partner.key)}?${query}`
    const target =
      way === 'iframe' ? ourPage : outcome === 'joined' && partner.thanks_url !== null ? partner.thanks_url : `${app.siteUrl()}${ourPage}`
    return reply.redirect(target, 303)
  })

  /** Allowed: one of the partner's origins, or ours (the iframe's page posting to its own site). */
  function allowedFrom(request: FastifyRequest, partner: PartnerRecord, origin: string | undefined): boolean {
    return origin !== undefined && origin !== 'null' && (partner.origins.includes(origin) || ours(request).includes(origin))
  }

  /** The script's join: JSON in, 201 for a new and a known address alike (the same body), a 400 naming the field. */
  async function joinByScript(
    request: FastifyRequest,
    reply: FastifyReply,
    partner: PartnerRecord,
    origin: string,
    json: string | undefined,
  ) {
    const wait = await app.insertLimiter(request, reply)
    if (wait !== undefined) throw tooMany('rate_limited', 'Too many sign-ups from this network just now', wait * 1000)
    let fields: unknown
    try {
      fields = JSON.parse(json ?? '')
    } catch {
      throw new HttpError(400, 'invalid_json', 'The body is empty or not valid JSON')
    }
    if (typeof fields !== 'object' || fields === null || Array.isArray(fields))
      throw new HttpError(400, 'invalid_body', 'The body is one object: { "email", "locale"? }')
    const given = fields as Record<string, unknown>
    for (const [name, value] of Object.entries(given)) {
      if (!JOIN_FIELDS.has(name)) throw new HttpError(400, 'invalid_body', `body/${name}: unknown field`)
      if (typeof value !== 'string') throw new HttpError(400, 'invalid_body', `body/${name}: expected text`)
    }
    const text = given as Record<string, string>
    // The same answer for a new address, a known one and a bot: it tells nothing of who is listed.
    const thanked = () => reply.code(201).send({ ok: true })
    // docs/protocol.md, "The browser side": a filled honeypot, or a form sent sooner than a person
    // could, is a bot's: it is told what a person is told, and nothing is stored.
    if (text.website) return notStored(request, thanked(), 'honeypot')
    const token = app.formTokens.check(text.token)
    if (token === 'tooFast') return notStored(request, thanked(), 'too fast')
    if (token === 'invalid')
      throw new HttpError(400, 'form_expired', 'token: missing, expired or not this site’s: ask for a new session and send again')
    const checked = checkRow({ email: text.email, locale: text[LOCALE_COLUMN] }, app.rowRules)
    if (!checked.ok) {
      const message = checked.failure.rule === 'email-missing' ? 'email: required' : 'email: not an address we can write to'
      throw new HttpError(400, 'invalid_email', message)
    }
    // Answer only after commit: a 201 must survive a crash.
    await add(request, partner, new URL(origin).host, checked.row)
    return thanked()
  }

  /** A form's join (the iframe's or the partner's plain form): every failure is one of the outcomes, as /join's are. */
  async function joinFromForm(
    request: FastifyRequest,
    reply: FastifyReply,
    partner: PartnerRecord,
    way: Way,
    origin: string,
    fields: Record<string, string>,
  ): Promise<EmbedOutcome> {
    if ((await app.insertLimiter(request, reply)) !== undefined) return 'busy'
    if (fields.website) return notStoredOutcome(request, 'honeypot')
    // The iframe's page was served by us with a token; the partner's plain form has only the honeypot.
    if (way === 'iframe') {
      const token = app.formTokens.check(fields.token)
      if (token === 'tooFast') return notStoredOutcome(request, 'too fast')
      if (token === 'invalid') return 'expired'
    }
    const checked = checkRow({ email: fields.email, locale: fields[LOCALE_COLUMN] }, app.rowRules)
    if (!checked.ok) return 'invalid'
    // The iframe's post comes from our page: the site it stood on is the partner's first.
    const from = way === 'iframe' ? new URL(partner.origins[0] ?? origin).host : new URL(origin).host
    try {
      await add(request, partner, from, checked.row)
      return 'joined'
    } catch (error) {
      // Nothing was stored, and the visitor is told so: the sign-up is theirs to send again.
      request.log.error({ err: error }, 'partner form sign-up not stored: the store failed')
      return 'error'
    }
  }

  /**
   * The sign-up, recorded as the partner's: a new address only (a known one stays with the way it
   * first joined), the site it came from as its referrer, its confirmation mail in its language.
   */
  async function add(request: FastifyRequest, partner: PartnerRecord, host: string, row: WaitlistRow) {
    const result = await app.store.add({ ...row, referrer: host, partner: partner.id, platform: platformOf(request.headers['user-agent']) })
    if (result.mailQueued) app.mailer.nudge()
  }

  function notStored<T>(request: FastifyRequest, answer: T, reason: string): T {
    request.log.info({ reason }, 'partner sign-up taken for a bot: success shown, nothing stored')
    return answer
  }
  const notStoredOutcome = (request: FastifyRequest, reason: string): EmbedOutcome => notStored(request, 'joined', reason)

  // The iframe form, and the thank-you page of a form without a thanks URL: framed only by the partner's origins.
  app.get(`${EMBED_PREFIX}/:key`, own, async (request, reply) => {
    const partner = await partnerOf(request)
    if (!partner) return notFound(request, reply)
    const query = request.query as Query
    const locale = readLocale(query.lang)
    const theme: EmbedTheme = query.theme === 'light' || query.theme === 'dark' ? query.theme : 'auto'
    const accent = query.accent !== undefined && ACCENT_PATTERN.test(query.accent) ? query.accent : null
    const sent = EMBED_OUTCOMES.find((outcome) => outcome === query.sent) ?? null
    const look = new URLSearchParams({ ...(theme === 'auto' ? {} : { theme }), ...(accent ? { accent } : {}) }).toString()
    const page = pages.embed.page({
      locale,
      action: `${embedJoinPath(partner.key)}${look ? `?${look}` : ''}`,
      token: app.formTokens.issue(),
      sent,
      privacyUrl: privacyUrl(locale),
      theme,
      accent,
      meter: await meterOf(partner, locale),
    })
    const styleHash = createHash('sha256').update(page.css).digest('base64')
    return reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .header('x-content-type-options', 'nosniff')
      .header('referrer-policy', 'strict-origin-when-cross-origin')
      .header('x-robots-tag', 'noindex')
      .header(
        'content-security-policy',
        `default-src 'none'; style-src 'sha256-${styleHash}'; form-action 'self'; base-uri 'none'; frame-ancestors ${partner.origins.join(' ')}`,
      )
      .send(
        `<!doctype html>\n<html lang="${locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="color-scheme" content="light dark"><title>${escapeHtml(page.title)}</title><style>${page.css}</style></head><body>${page.html}</body></html>\n`,
      )
  })
}
