import fastifyStatic from '@fastify/static'
import type { FastifyInstance } from 'fastify'
import { existsSync } from 'node:fs'
import { join } from 'node:path'

/**
 * Serves the built page: the build's brotli or gzip copy when the browser takes it, hashed assets
 * cached for a year, everything else (the HTML) revalidated on every visit.
 */
export async function page(app: FastifyInstance, { root, admin }: { root: string; admin: boolean }) {
  if (!existsSync(join(root, 'index.html'))) {
    app.log.warn({ root }, 'no built page found: run `npm run build`; serving the API only')
    return
  }
  await app.register(fastifyStatic, {
    root,
    wildcard: false,
    index: ['index.html'],
    preCompressed: true,
    // The compressed copies are served in place of their original, never by their own name; the
    // operators' page only at /admin, and only when it is enabled.
    allowedPath: (pathname) => !/\.(br|gz)$/.test(pathname) && pathname !== '/admin.html',
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
