import fastifyCompress from '@fastify/compress'
import fastifyStatic from '@fastify/static'
import type { FastifyInstance, FastifyReply } from 'fastify'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { constants } from 'node:zlib'
import type { FormTokens } from '../form-token.js'

/** Where the built page's no-script form takes its signed timestamp (web/sections/waitlist.tsx). */
export const FORM_TOKEN_SLOT = 'value="@form-token@"'

/**
 * Serves the built page: the build's brotli or gzip copy when the browser takes it, hashed assets
 * cached for a year, everything else revalidated on every visit. The HTML, when its form works
 * without JavaScript, is sent with a fresh form token each time, compressed as it is sent.
 */
export async function page(app: FastifyInstance, { root, admin, tokens }: { root: string; admin: boolean; tokens: FormTokens }) {
  if (!existsSync(join(root, 'index.html'))) {
    app.log.warn({ root }, 'no built page found: run `npm run build`; serving the API only')
    return
  }
  const [before, after, ...more] = readFileSync(join(root, 'index.html'), 'utf8').split(FORM_TOKEN_SLOT)
  const template = before !== undefined && after !== undefined && more.length === 0 ? { before, after } : undefined
  if (template) {
    // Said once the server listens: a start that fails says only why it failed.
    if (tokens.ephemeral) {
      app.addHook('onListen', async () => app.log.info('FORM_SECRET is not set: no-script forms sent before a restart will be asked to resend'))
    }
    await app.register(async (scope) => {
      // Brotli at 5 is about as small as gzip at 9 and fast enough to run per visit (~1 ms here).
      await scope.register(fastifyCompress, {
        global: true,
        encodings: ['br', 'gzip'],
        brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } },
      })
      const send = (_request: unknown, reply: FastifyReply) =>
        reply
          .type('text/html; charset=utf-8')
          // No validator: a revalidated copy would carry an old token.
          .header('cache-control', 'no-cache')
          .send(`${template.before}value="${tokens.issue()}"${template.after}`)
      scope.get('/', send)
      scope.get('/index.html', send)
    })
  }
  await app.register(fastifyStatic, {
    root,
    wildcard: false,
    index: template ? false : ['index.html'],
    // With a template, the HTML is sent by the route above, never as the file it was made from.
    globIgnore: template ? ['index.html', 'index.html.*'] : [],
    preCompressed: true,
    // The compressed copies are served in place of their original, never by their own name; the
    // operators' page only at /admin, and only when it is enabled; the 404 page only as an answer.
    allowedPath: (pathname) => !/\.(br|gz)$/.test(pathname) && pathname !== '/admin.html' && pathname !== '/404.html',
    cacheControl: false,
    setHeaders(res, path) {
      const hashed = path.includes(`${join(root, 'assets')}`)
      res.setHeader('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache')
      // The answer depends on Accept-Encoding: a shared cache must not give brotli to everyone.
      res.setHeader('vary', 'Accept-Encoding')
    },
  })
  if (admin) {
    app.get('/admin', (_request, reply) =>
      reply.header('x-robots-tag', 'noindex, nofollow').header('cache-control', 'no-store').sendFile('admin.html'),
    )
  }
}
