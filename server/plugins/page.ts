import fastifyStatic from '@fastify/static'
import type { FastifyInstance } from 'fastify'
import { existsSync } from 'node:fs'
import { join } from 'node:path'

/**
 * Serves the built page: the build's brotli or gzip copy when the browser takes it, hashed assets
 * cached for a year, everything else (the HTML) revalidated on every visit.
 */
export async function page(app: FastifyInstance, { root }: { root: string }) {
  if (!existsSync(join(root, 'index.html'))) {
    app.log.warn({ root }, 'no built page found: run `npm run build`; serving the API only')
    return
  }
  await app.register(fastifyStatic, {
    root,
    wildcard: false,
    index: ['index.html'],
    preCompressed: true,
    // The compressed copies are served in place of their original, never by their own name.
    allowedPath: (pathname) => !/\.(br|gz)$/.test(pathname),
    cacheControl: false,
    setHeaders(res, path) {
      const hashed = path.includes(`${join(root, 'assets')}`)
      res.setHeader('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache')
      // The answer depends on Accept-Encoding: a shared cache must not give brotli to everyone.
      res.setHeader('vary', 'Accept-Encoding')
    },
  })
}
