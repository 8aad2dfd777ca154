// Into the app (docs/decisions/022-into-the-app.md, docs/launch.md): the two files that let the iOS
// and Android apps open /app/ links, the page such a link shows a browser where the app is not
// installed, and the claim that hands a profile to the app once, by its code, to an `app` token.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import {
  ALREADY_CLAIMED,
  APP_CLAIM_PATH,
  APP_CODE_PATTERN,
  APP_PATH,
  APPLE_ASSOCIATION_PATH,
  ASSET_LINKS_PATH,
  type AppPageView,
  WRONG_CODE_WINDOW_MS,
  WRONG_CODES_PER_MINUTE,
} from '../../contract/app.js'
import { can } from '../../contract/team.js'
import { DEFAULT_LOCALE } from '../../contract/locales.js'
import { isCountedView } from '../growth/views.js'
import { HttpError } from '../http/errors.js'
import type { AuditEntry } from '../store/types.js'
import { type Caller, tokenCaller } from '../team/auth.js'
import type { VisitorPages } from '../visitor/pages.js'
import { playUrlWithCode, type StoreUrls } from './links.js'
import { platformOf } from './platform.js'

export interface HandOffOptions {
  /** The visitor's pages' render module (the /app/ page is one of them); absent in a build without it. */
  pages: VisitorPages | undefined
  stores: StoreUrls
  /** IOS_APP_ID: `<team id>.<bundle id>`. */
  iosAppId: string | undefined
  /** ANDROID_PACKAGE with ANDROID_CERT_SHA256 (upper case). */
  android: { packageName: string; fingerprints: readonly string[] } | undefined
  adminToken: string | undefined
}

/**
 * The apple-app-site-association file: /app/* for the app, as iOS 13 and later read it
 * (appIDs, components) and as iOS 12 and earlier did (appID, paths).
 */
export function appleAssociation(iosAppId: string): string {
  return JSON.stringify({
    applinks: {
      apps: [],
      details: [{ appIDs: [iosAppId], components: [{ '/': `${APP_PATH}/*` }], appID: iosAppId, paths: [`${APP_PATH}/*`] }],
    },
  })
}

/** The Digital Asset Links statement: the Android app may handle every link of this site (its /app/ links). */
export function assetLinks(android: { packageName: string; fingerprints: readonly string[] }): string {
  return JSON.stringify([
    {
      relation: ['delegate_permission/common.handle_all_urls'],
      target: { namespace: 'android_app', package_name: android.packageName, sha256_cert_fingerprints: android.fingerprints },
    },
  ])
}

/** Apple's CDN and Google's verifier fetch these now and then: an hour of caching spares the server. */
const WELL_KNOWN_CACHE = 'public, max-age=3600'

const noSuchFile = () => new HttpError(404, 'not_found', 'Not found')

export async function handOffRoutes(app: FastifyInstance, options: HandOffOptions) {
  const { pages, stores, iosAppId, android, adminToken } = options

  // application/json exactly, no redirect, whatever the client accepts (Apple's CDN asks with no Accept).
  // (A Buffer: Fastify would add `; charset=utf-8` to a string.)
  const json = (reply: FastifyReply, body: string) =>
    reply.header('cache-control', WELL_KNOWN_CACHE).header('content-type', 'application/json').send(Buffer.from(body))
  const association = iosAppId === undefined ? undefined : appleAssociation(iosAppId)
  const statements = android === undefined ? undefined : assetLinks(android)
  app.get(APPLE_ASSOCIATION_PATH, async (_request, reply) => {
    if (association === undefined) throw noSuchFile()
    return json(reply, association)
  })
  app.get(ASSET_LINKS_PATH, async (_request, reply) => {
    if (statements === undefined) throw noSuchFile()
    return json(reply, statements)
  })

  // The link's page: never cached, indexed or passed on in a Referer (the code is a secret).
  const html = (reply: FastifyReply, status: number, body: string) =>
    reply
      .code(status)
      .headers({ 'cache-control': 'no-store', 'referrer-policy': 'no-referrer', 'x-robots-tag': 'noindex, nofollow' })
      .type('text/html; charset=utf-8')
      .send(body)
  app.get<{ Params: { code: string } }>(`${APP_PATH}/:code`, async (request, reply) => {
    if (!pages) throw new HttpError(404, 'not_found', 'Not found')
    const { code } = request.params
    // Only a person's view counts the link opened: not a mail scanner's, a preview's or a prefetch.
    const link = APP_CODE_PATTERN.test(code) ? await app.store.app.open(code, isCountedView(request.method, request.headers)) : undefined
    // A code that opens nothing cannot say whose language to speak: English, as at `/`.
    if (!link) return html(reply, 404, pages.appGone('not-found', DEFAULT_LOCALE))
    if (link.claimed) return html(reply, 404, pages.appGone('claimed', link.locale))
    const device = platformOf(request.headers['user-agent'])
    const view: AppPageView = {
      locale: link.locale,
      device,
      // The phone's own store; a desktop (or a phone of neither kind) both.
      appStoreUrl: device === 'android' ? null : stores.appStoreUrl,
      playStoreUrl: device === 'ios' || stores.playStoreUrl === null ? null : playUrlWithCode(stores.playStoreUrl, code),
      code,
    }
    return html(reply, 200, pages.app(view))
  })

  // The claim: only an `app` token (401 without a token, 403 for any other role's), checked before
  // the body is read; wrong codes are counted per token.
  const callers = new WeakMap<FastifyRequest, Caller>()
  app.post(
    APP_CLAIM_PATH,
    {
      schema: {
        body: {
          type: 'object',
          additionalProperties: false,
          required: ['code'],
          properties: { code: { type: 'string', minLength: 1, maxLength: 64 } },
        },
      },
      onRequest: async (request, reply) => {
        void reply.header('cache-control', 'no-store')
        const bearer = /^Bearer\s+(.+)$/i.exec(request.headers.authorization ?? '')?.[1]
        if (bearer === undefined)
          throw new HttpError(401, 'unauthorized', 'The app sends its token as Authorization: Bearer', {
            headers: { 'www-authenticate': 'Bearer' },
          })
        // A wrong token counts against the client as on the admin API (its lockout).
        const caller = await tokenCaller(app, request, bearer, adminToken)
        if (!can(caller.role, 'app:claim') || caller.tokenId === null)
          throw new HttpError(403, 'forbidden', `Your role (${caller.role}) may not do this (app:claim): only an app token claims profiles`)
        callers.set(request, caller)
      },
      // The schema's validator would take the number 12 for the code "12": a code is a string, or a 400.
      preValidation: async (request) => {
        const body = request.body as Record<string, unknown> | null
        if (typeof body === 'object' && body !== null && 'code' in body && typeof body.code !== 'string')
          throw new HttpError(400, 'invalid_body', `code: expected the app link's code as a string, got ${typeof body.code}`)
      },
    },
    async (request, reply) => {
      const caller = callers.get(request)
      if (!caller || caller.tokenId === null) throw new Error('a claim passed without its caller')
      // Wrong codes a minute per token: past the limit the token waits for the minute's end, right
      // code or not (else a guesser would learn from the answer). A minute, not the admin lockout's
      // quarter hour, and nothing counted against the client: the app's people go on.
      const key = `app:wrong-code:${caller.tokenId}`
      const wrong = await app.store.counters.peek(key)
      if (wrong.hits >= WRONG_CODES_PER_MINUTE) {
        const seconds = String(Math.max(1, Math.ceil(wrong.resetMs / 1000)))
        throw new HttpError(429, 'too_many_wrong_codes', 'Too many wrong codes from this token', {
          hint: `Retry after ${seconds} seconds`,
          headers: { 'retry-after': seconds },
        })
      }
      const { code } = request.body as { code: string }
      const audit = (signupId: number): AuditEntry => ({
        actorId: null,
        actor: caller.label,
        action: 'profile claimed',
        target: `signup ${signupId}`,
        detail: null,
        requestId: request.id,
      })
      const claimed = APP_CODE_PATTERN.test(code) ? await app.store.app.claim(code, caller.tokenId, audit) : undefined
      if (claimed === undefined) {
        await app.store.counters.hit([{ key, windowMs: WRONG_CODE_WINDOW_MS }])
        throw new HttpError(404, 'not_found', 'No profile has this code: it is unknown, or its sign-up was deleted')
      }
      if (claimed === 'claimed') throw new HttpError(409, ALREADY_CLAIMED, 'The app has taken this profile already')
      // Its signup.claimed event was written with the claim: sent now, not at the next look.
      app.webhooks.nudge()
      request.log.info({}, 'app: a profile was claimed')
      return reply.send(claimed)
    },
  )
}
