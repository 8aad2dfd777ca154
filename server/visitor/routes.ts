// The visitor's own page, /me/<token> (docs/decisions/012-the-visitors-page.md): a GET shows and
// changes nothing (mail scanners open links); each action is a POST from a plain form, answered
// by a redirect back to the page (no script needed). One-click unsubscribe per RFC 8058: a POST of
// `List-Unsubscribe=One-Click` to the address in the mail's List-Unsubscribe header.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { INVITE_PARAM } from '../../contract/growth.js'
import { DEFAULT_LOCALE, isLocale, type Locale, LOCALE_COLUMN, localePath, readLocale } from '../../contract/locales.js'
import { translator } from '../../locales/index.js'
import {
  ONE_CLICK_FIELD,
  ONE_CLICK_VALUE,
  VISITOR_NOTICES,
  VISITOR_PATH,
  type VisitorNotice,
  type VisitorView,
} from '../../contract/visitor.js'
import { hashToken, TOKEN_PATTERN } from '../secrets.js'
import { StoreUnavailableError, type Visitor } from '../store/types.js'
import { handleError, HttpError } from '../http/errors.js'
import type { VisitorPages } from './pages.js'
import { readProfile } from './profile.js'
import { knownBreedsOf, visitorBreedMeters } from '../breeds/meters.js'
import { isPlatform } from '../../contract/app.js'
import { appLinkOf } from '../handoff/links.js'

/** A form on the page is a few short fields; anything bigger is not ours. */
const MAX_FORM_BYTES = 16_384
const DELETED_PATH = `${VISITOR_PATH}/deleted`

type Params = { token: string }

export async function visitorRoutes(app: FastifyInstance, { pages }: { pages: VisitorPages }) {
  app.removeAllContentTypeParsers()
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: MAX_FORM_BYTES }, (_request, body, done) =>
    done(null, new URLSearchParams(String(body))),
  )
  // RFC 8058 allows the one-click POST as multipart too: only its one field is looked for.
  app.addContentTypeParser('multipart/form-data', { parseAs: 'string', bodyLimit: MAX_FORM_BYTES }, (_request, body, done) =>
    done(null, String(body)),
  )

  // The token is the page's only key: never cached, indexed or passed on in a Referer.
  app.addHook('onRequest', async (_request, reply) => {
    reply.headers({ 'cache-control': 'no-store', 'referrer-policy': 'no-referrer', 'x-robots-tag': 'noindex, nofollow' })
  })

  const html = (reply: FastifyReply, status: number, body: string) => reply.code(status).type('text/html; charset=utf-8').send(body)
  // A form always answers with a page: when the store cannot answer now, a page that says to try
  // again (503, nothing changed), in the default language (the visitor's is in the store); the data
  // download keeps the API's JSON answer.
  app.setErrorHandler((error: Error, request, reply) => {
    const unavailable = error instanceof StoreUnavailableError || (error instanceof HttpError && error.status === 503)
    if (!unavailable || request.url.split('?')[0]?.endsWith('/data.json')) return handleError(error, request, reply)
    request.log.warn({ err: error }, 'store unavailable; answered the visitor 503')
    return html(reply.header('retry-after', '5'), 503, pages.gone('unavailable', DEFAULT_LOCALE))
  })
  const form = (request: FastifyRequest) => (request.body instanceof URLSearchParams ? request.body : new URLSearchParams())

  /** The sign-up the link opens, or the "nothing here" page answered already. */
  async function visitorOf(request: FastifyRequest<{ Params: Params }>, reply: FastifyReply): Promise<Visitor | undefined> {
    const { token } = request.params
    const visitor = TOKEN_PATTERN.test(token) ? await app.store.visitors.byToken(hashToken(token)) : undefined
    // A link that opens nothing cannot say whose language to speak: English, as at `/`.
    if (!visitor) await html(reply, 404, pages.gone('not-found', DEFAULT_LOCALE))
    return visitor
  }

  const view = async (
    visitor: Visitor,
    token: string,
    notice: VisitorNotice | null,
    step: VisitorView['step'] = 'page',
  ): Promise<VisitorView> => {
    const confirmed = visitor.confirmed_at !== null
    const code = confirmed ? visitor.invite_code : null
    // The meters as the public sees them (docs/public-figures.md), by the rule of /api/launch; the
    // visitor's own breeds read by key, not the whole count (at a million, 35,000 rows).
    const known = knownBreedsOf(visitor.profile)
    const [counts, meter, breeds, offsets] = await Promise.all([
      code === null ? undefined : app.store.visitors.invites(visitor.id),
      visitor.profile.country === null ? null : app.launch.meter(visitor.profile.country),
      visitor.profile.country === null || known.length === 0 ? null : app.breedMeters.of(visitor.profile.country, known),
      app.launch.figures.offsets(),
    ])
    return {
      base: `${VISITOR_PATH}/${token}`,
      locale: visitor.locale,
      email: visitor.email,
      joinedAt: visitor.created_at,
      confirmed,
      subscribed: visitor.unsubscribed_at === null,
      profile: visitor.profile,
      notice,
      step,
      invite:
        code === null || !counts ? null : { link: `${app.siteUrl()}${localePath(visitor.locale)}?${INVITE_PARAM}=${code}`, ...counts },
      meter,
      breedMeters: breeds ? visitorBreedMeters(breeds, visitor.profile, visitor.locale, offsets) : [],
      app: {
        platform: visitor.platform,
        link: visitor.app_code === null ? null : appLinkOf(app.siteUrl(), visitor.app_code),
        claimedAt: visitor.claimed_at,
      },
    }
  }
  const back = (reply: FastifyReply, token: string, notice: VisitorNotice) => reply.redirect(`${VISITOR_PATH}/${token}?done=${notice}`, 303)

  app.get<{ Querystring: { locale?: string } }>(DELETED_PATH, (request, reply) =>
    html(reply, 200, pages.gone('deleted', readLocale(request.query.locale))),
  )

  app.get<{ Params: Params; Querystring: { done?: string } }>(`${VISITOR_PATH}/:token`, async (request, reply) => {
    const visitor = await visitorOf(request, reply)
    if (!visitor) return reply
    const done = request.query.done
    const notice = VISITOR_NOTICES.find((n) => n === done) ?? null
    return html(reply, 200, pages.page(await view(visitor, request.params.token, notice)))
  })

  app.get<{ Params: Params }>(`${VISITOR_PATH}/:token/data.json`, async (request, reply) => {
    const visitor = await visitorOf(request, reply)
    if (!visitor) return reply
    const data = { ...(await app.store.visitors.data(visitor.id)), mail_events: await app.store.suppressions.eventsOf(visitor.id) }
    return reply
      .type('application/json; charset=utf-8')
      .header(
        'content-disposition',
        `attachment; filename="${pages.site.productName.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-${dataFileName(visitor.locale)}.json"`,
      )
      .send(`${JSON.stringify({ exported_at: new Date().toISOString(), ...data }, null, 2)}\n`)
  })

  app.post<{ Params: Params }>(`${VISITOR_PATH}/:token/confirm`, async (request, reply) => {
    const visitor = await visitorOf(request, reply)
    if (!visitor) return reply
    await app.store.visitors.confirm(visitor.id)
    app.waiting.changed()
    return back(reply, request.params.token, 'confirmed')
  })

  app.post<{ Params: Params }>(`${VISITOR_PATH}/:token/profile`, async (request, reply) => {
    const visitor = await visitorOf(request, reply)
    if (!visitor) return reply
    const profile = readProfile(form(request))
    // Only a post the form cannot make lands here: the page again, as it was, saying so.
    if (!profile) return html(reply, 400, pages.page(await view(visitor, request.params.token, null), 'invalid-profile'))
    await app.store.visitors.saveProfile(visitor.id, profile)
    return back(reply, request.params.token, 'saved')
  })

  // The phone they use: one of ours, or the page again saying so (nothing changes).
  app.post<{ Params: Params }>(`${VISITOR_PATH}/:token/phone`, async (request, reply) => {
    const visitor = await visitorOf(request, reply)
    if (!visitor) return reply
    const chosen = form(request).get('platform')
    if (!isPlatform(chosen)) return html(reply, 400, pages.page(await view(visitor, request.params.token, null), 'invalid-profile'))
    await app.store.visitors.setPlatform(visitor.id, chosen)
    return back(reply, request.params.token, 'phone')
  })

  // A GET of the unsubscribe address (a person clicking it in a client that shows it) changes
  // nothing: it opens the page at its e-mails section, where the button is.
  app.get<{ Params: Params }>(`${VISITOR_PATH}/:token/unsubscribe`, async (request, reply) =>
    reply.redirect(`${VISITOR_PATH}/${request.params.token}#emails`, 303),
  )

  // The language the page and the mails speak: one of ours (a post the form cannot make changes nothing).
  app.post<{ Params: Params }>(`${VISITOR_PATH}/:token/language`, async (request, reply) => {
    const visitor = await visitorOf(request, reply)
    if (!visitor) return reply
    const chosen = form(request).get(LOCALE_COLUMN)
    if (isLocale(chosen)) await app.store.visitors.setLocale(visitor.id, chosen)
    return back(reply, request.params.token, 'language')
  })

  app.post<{ Params: Params }>(`${VISITOR_PATH}/:token/unsubscribe`, async (request, reply) => {
    const visitor = await visitorOf(request, reply)
    if (!visitor) return reply
    await app.store.visitors.setSubscribed(visitor.id, false)
    app.waiting.changed()
    request.log.info({ oneClick: isOneClick(request.body) }, 'visitor: e-mails stopped')
    // A mailbox's one-click POST wants a plain 200; the page's own button comes back to the page.
    if (isOneClick(request.body))
      return reply.type('text/plain; charset=utf-8').send(`${translator(visitor.locale)('visitor.emails.oneClickDone')}\n`)
    return back(reply, request.params.token, 'unsubscribed')
  })

  app.post<{ Params: Params }>(`${VISITOR_PATH}/:token/resubscribe`, async (request, reply) => {
    const visitor = await visitorOf(request, reply)
    if (!visitor) return reply
    await app.store.visitors.setSubscribed(visitor.id, true)
    app.waiting.changed()
    return back(reply, request.params.token, 'resubscribed')
  })

  // Two steps: the first shows what will go and asks; the second (confirm=yes) deletes.
  app.post<{ Params: Params }>(`${VISITOR_PATH}/:token/delete`, async (request, reply) => {
    const visitor = await visitorOf(request, reply)
    if (!visitor) return reply
    if (form(request).get('confirm') !== 'yes')
      return html(reply, 200, pages.page(await view(visitor, request.params.token, null, 'confirm-delete')))
    await app.store.visitors.remove(visitor.id)
    app.waiting.changed()
    request.log.info({}, 'visitor: sign-up deleted by its owner')
    return reply.redirect(`${DELETED_PATH}?locale=${visitor.locale}`, 303)
  })
}

/** RFC 8058: `List-Unsubscribe=One-Click`, urlencoded or as a multipart field. */
function isOneClick(body: unknown): boolean {
  if (body instanceof URLSearchParams) return body.get(ONE_CLICK_FIELD) === ONE_CLICK_VALUE
  return typeof body === 'string' && new RegExp(`name="${ONE_CLICK_FIELD}"\\r?\\n\\r?\\n${ONE_CLICK_VALUE}\\r?\\n`).test(body)
}

/** The download's name in the visitor's language (`my-data`, `meine-daten`…). */
function dataFileName(locale: Locale): string {
  return translator(locale)('visitor.data.fileName')
}
