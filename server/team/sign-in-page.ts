// The page an e-mail sign-in link opens (docs/decisions/017-the-team.md): its GET only shows a
// button, the same for any token (mail scanners open links; opening changes and reveals nothing),
// and pressing it posts the form that signs in, sets the session cookie and sends the browser to
// /admin, or says the link no longer works. No script.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { acceptedLanguages, DEFAULT_LOCALE, firstLocaleOf } from '../../contract/locales.js'
import { adminTranslator, type Translate } from '../../locales/index.js'
import { ADMIN_PAGE_PATH, TEAM_PATHS } from '../../contract/paths.js'
import { hashToken, TOKEN_PATTERN } from '../secrets.js'
import { countFailure, failureKeys, refuseWhileLocked } from './auth.js'
import { startSession } from './session-routes.js'

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

/** The page's words in the browser's language (the link's operator is not looked up before the press). */
const wordsFor = (request: FastifyRequest, product: string) =>
  adminTranslator(firstLocaleOf(acceptedLanguages(request.headers['accept-language'])) ?? DEFAULT_LOCALE, { product })

function page(t: Translate, body: string): string {
  return `<!doctype html>
<html lang="${t.locale}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="robots" content="noindex, nofollow">
<meta name="referrer" content="same-origin">
<title>${escape(t('signInPage.title'))}</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<style>
  body { margin: 0; min-height: 100vh; display: grid; place-items: center; font: 16px/1.5 system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif; background: #f5f5f4; color: #1c1917; }
  main { width: min(26rem, calc(100% - 2.5rem)); background: #fff; border-radius: 1rem; padding: 2rem 1.5rem; box-shadow: 0 1px 3px rgb(0 0 0 / 0.1); }
  h1 { margin: 0 0 0.5rem; font-size: 1.5rem; }
  p { margin: 0 0 1.25rem; color: #44403c; }
  button, a.button { display: inline-flex; min-height: 2.75rem; align-items: center; border: 0; border-radius: 0.75rem; padding: 0 1.25rem; background: #c2410c; color: #fff; font: inherit; font-weight: 600; cursor: pointer; text-decoration: none; }
  button:focus-visible, a:focus-visible { outline: 3px solid #fdba74; outline-offset: 2px; }
  @media (prefers-color-scheme: dark) { body { background: #0c0a09; color: #f5f5f4; } main { background: #1c1917; } p { color: #d6d3d1; } }
</style>
</head>
<body><main>${body}</main></body>
</html>
`
}

export async function signInPage(app: FastifyInstance) {
  // The button's form sends nothing but itself.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, _body, done) => done(null, {}))
  const gone = (request: FastifyRequest, reply: FastifyReply) => {
    const t = wordsFor(request, app.productName)
    return reply
      .code(410)
      .type('text/html; charset=utf-8')
      .send(
        page(
          t,
          `<h1>${escape(t('signInPage.goneHeading'))}</h1><p>${escape(t('signInPage.goneText'))}</p><a class="button" href="${ADMIN_PAGE_PATH}">${escape(t('signInPage.goneButton'))}</a>`,
        ),
      )
  }
  const open = async (request: FastifyRequest) => {
    const { token } = request.params as { token: string }
    return TOKEN_PATTERN.test(token) ? app.store.team.openLink(hashToken(token), ['sign-in']) : undefined
  }
  // same-origin, not no-referrer: the link's token never leaves for another site, and the form's
  // post keeps its Origin (under no-referrer Chromium sends `Origin: null`, which is refused).
  const headers = { 'cache-control': 'no-store', 'x-robots-tag': 'noindex, nofollow', 'referrer-policy': 'same-origin' }

  // The GET neither spends nor tells: the same page for every token, no look-up, and the token
  // only in the address bar (the form posts back to the page's own address).
  app.get(`${TEAM_PATHS.signIn}/:token`, async (request, reply) => {
    reply.headers(headers)
    const t = wordsFor(request, app.productName)
    return reply.type('text/html; charset=utf-8').send(
      page(
        t,
        `<h1>${escape(t('signInPage.heading'))}</h1><p>${escape(t('signInPage.text'))}</p>
<form method="post"><button type="submit">${escape(t('signInPage.button'))}</button></form>`,
      ),
    )
  })

  app.post(`${TEAM_PATHS.signIn}/:token`, async (request, reply) => {
    reply.headers(headers)
    // Our own page's form only: a post from another site cannot sign a browser in (login CSRF).
    const origin = request.headers.origin
    if (origin !== undefined && origin !== new URL(app.siteUrl()).origin && origin !== `${request.protocol}://${request.host}`)
      return reply.code(403).type('text/plain; charset=utf-8').send('A sign-in must come from its own page')
    await refuseWhileLocked(app, [failureKeys.client(request)])
    const { token } = request.params as { token: string }
    const link = await open(request)
    const operator = link?.operator_id ? await app.store.team.operator(link.operator_id) : undefined
    const info =
      link && link.operator_id !== null && operator?.disabled_at === null
        ? await startSession(app, request, reply, {
            link: { tokenHash: hashToken(token), purposes: ['sign-in'] },
            operator: { id: link.operator_id },
            audit: { action: 'sign-in', target: `operator ${link.operator_id}`, detail: { method: 'e-mail link' }, requestId: request.id },
          })
        : undefined
    if (!info) {
      await countFailure(app, [failureKeys.client(request)])
      return gone(request, reply)
    }
    return reply.redirect(ADMIN_PAGE_PATH, 303)
  })
}
