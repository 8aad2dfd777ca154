// Into the app (docs/decisions/022-into-the-app.md, docs/launch.md): the two files that let the iOS
// and Android apps open /app/ links, the page such a link shows a browser where the app is not
// installed, and the claim that hands a profile to the app once, by its code, to an `app` token
// (again to the same app at the same address for a while, for an answer that was lost).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import {
  ALREADY_CLAIMED,
  APP_CLAIM_PATH,
  APP_CODE_PATTERN,
  APP_PATH,
  APPLE_ASSOCIATION_PATH,
  ASSET_LINKS_PATH,
  type AppPageView,
  CLAIM_AGAIN_MS,
  UNKNOWN_APP_LINKS_PER_CLIENT_PER_MINUTE,
  WRONG_CODE_WINDOW_MS,
  WRONG_CODES_PER_CLIENT_PER_MINUTE,
  WRONG_CODES_PER_TOKEN_PER_MINUTE,
} from '../../contract/app.js'
import { can } from '../../contract/team.js'
import { DEFAULT_LOCALE } from '../../contract/locales.js'
import { isCountedView } from '../growth/views.js'
import { HttpError, secondsUntil, tooMany } from '../http/errors.js'
import { hashToken } from '../secrets.js'
import { type AuditEntry, StoreUnavailableError } from '../store/types.js'
import { type Caller, tokenCaller } from '../team/auth.js'
import type { VisitorPages } from '../visitor/pages.js'
import { clientKey } from '../waitlist/client-key.js'
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

const tooManyWrongCodes = (resetMs: number, from: string) => tooMany('too_many_wrong_codes', `Too many wrong codes from ${from}`, resetMs)

/**
 * The counters' keys of the wrong-code budgets (docs/decisions/022-into-the-app.md, "Wrong codes"):
 * a client's (the token and its address), the token's in all, and an address's /app/ pages.
 */
const budgetKeys = {
  client: (tokenId: number, client: string) => `app:wrong-code:${tokenId}:${client}`,
  token: (tokenId: number) => `app:wrong-code:${tokenId}`,
  pages: (client: string) => `app:unknown-link:${client}`,
}

/**
 * The key that says this token claimed this code from this address within CLAIM_AGAIN_MS: a hash,
 * so that neither the address nor the code is written out in the counters (on PostgreSQL a row of
 * rate_counters, deleted within a minute of its window's end).
 */
const claimedKey = (tokenId: number, client: string, code: string) => `app:claimed:${hashToken(`${tokenId}\n${client}\n${code}`)}`

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

  // A look-up the store could not answer (a 503 the app retries) spends nothing: its units back.
  // Any other failure (a 500) keeps them: it is not the app's to retry.
  async function unspentIfFailed<T>(units: string[], lookUp: () => Promise<T>): Promise<T> {
    try {
      return await lookUp()
    } catch (failure) {
      if (failure instanceof StoreUnavailableError)
        await app.store.counters.giveBack(units).catch((error: unknown) => app.log.warn({ err: error }, 'app: a budget not given back'))
      throw failure
    }
  }

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
    // Codes that open nothing, per address: the budget taken before the look-up (so that any number
    // at once looks up at most the budget), given back by a code that opens a page. Past it, every
    // code waits, a real one too: a guess learns nothing from the answer.
    const budget = budgetKeys.pages(clientKey(request.ip))
    const [taken] = await app.store.counters.hit([{ key: budget, windowMs: WRONG_CODE_WINDOW_MS }])
    if (taken && taken.hits > UNKNOWN_APP_LINKS_PER_CLIENT_PER_MINUTE)
      return html(reply.header('retry-after', String(secondsUntil(taken.resetMs))), 429, pages.appGone('busy', DEFAULT_LOCALE))
    // Only a person's view counts the link opened: not a mail scanner's, a preview's or a prefetch.
    const link = APP_CODE_PATTERN.test(code)
      ? await unspentIfFailed([budget], () => app.store.app.open(code, isCountedView(request.method, request.headers)))
      : undefined
    // A code that opens nothing cannot say whose language to speak: English, as at `/`.
    if (!link) return html(reply, 404, pages.appGone('not-found', DEFAULT_LOCALE))
    await app.store.counters.giveBack([budget])
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
  // the body is read; wrong codes are counted per client (the token and its address).
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
      const { tokenId } = caller
      const client = clientKey(request.ip)
      const { code } = request.body as { code: string }
      // Wrong codes a minute per client: every copy of the app carries the same token, so a budget
      // of the token's alone would be a switch anyone holding it could keep off. The budget is taken
      // before the look-up (any number of claims at once look up at most the budget) and given back
      // by a right code. Past it, that client waits for the window's end, right code or not (a guess
      // learns nothing from the answer); others go on. Then the token's ceiling, a hundred clients'
      // worth, counting only what a client's own budget let through, so one address's flood never
      // reaches it, and holding only clients that have sent a code before in their window. Nothing counts against the client on the admin API: the app's people go on.
      const ownKey = budgetKeys.client(tokenId, client)
      const tokenKey = budgetKeys.token(tokenId)
      const [own] = await app.store.counters.hit([{ key: ownKey, windowMs: WRONG_CODE_WINDOW_MS }])
      if (own && own.hits > WRONG_CODES_PER_CLIENT_PER_MINUTE) throw tooManyWrongCodes(own.resetMs, 'this address')
      const [all] = await app.store.counters.hit([{ key: tokenKey, windowMs: WRONG_CODE_WINDOW_MS }])
      // A client's first code in its window passes the ceiling: a person claiming once is never held
      // off by guesses from elsewhere (a hundred /64s are one home line's /56), and a guess spread
      // over many addresses still gets one more a minute from each, no more.
      if (all && all.hits > WRONG_CODES_PER_TOKEN_PER_MINUTE && own && own.hits > 1) throw tooManyWrongCodes(all.resetMs, 'this app token')

      const audit = (signupId: number): AuditEntry => ({
        actorId: null,
        actor: caller.label,
        action: 'profile claimed',
        target: `signup ${signupId}`,
        detail: null,
        requestId: request.id,
      })
      const claimed = APP_CODE_PATTERN.test(code)
        ? await unspentIfFailed([ownKey, tokenKey], () => app.store.app.claim(code, tokenId, audit))
        : undefined
      if (claimed === undefined)
        throw new HttpError(404, 'not_found', 'No profile has this code: it is unknown, or its sign-up was deleted')
      const again = claimedKey(tokenId, client, code)
      if (claimed === 'claimed') {
        // A right code, spent: its unit back. The same token from the same address within
        // CLAIM_AGAIN_MS is an app whose answer was lost asking again: the same profile (nothing
        // written: one claim, one audit line, one event). Anyone else: 409.
        const [, mark] = await Promise.all([app.store.counters.giveBack([ownKey, tokenKey]), app.store.counters.peek(again)])
        const lost = mark.hits > 0 ? await app.store.app.claimedProfile(code, tokenId) : undefined
        if (lost === undefined) throw new HttpError(409, ALREADY_CLAIMED, 'The app has taken this profile already')
        request.log.info({}, 'app: a claimed profile was asked for again')
        return reply.send(lost)
      }
      // The claim is committed: what follows must not lose its answer. Each is logged if it fails;
      // then a retry gets 409 (the mark missing), or the budget keeps one unit too many for its minute.
      const settled = await Promise.allSettled([
        app.store.counters.hit([{ key: again, windowMs: CLAIM_AGAIN_MS }]),
        app.store.counters.giveBack([ownKey, tokenKey]),
      ])
      for (const result of settled)
        if (result.status === 'rejected') request.log.warn({ err: result.reason }, 'app: a claim answered without its counters')
      // Its signup.claimed event was written with the claim: sent now, not at the next look.
      app.webhooks.nudge()
      request.log.info({}, 'app: a profile was claimed')
      return reply.send(claimed)
    },
  )
}
