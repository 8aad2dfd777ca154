// The build's files (dist/client): the brotli or gzip copy when the browser takes it, hashed assets
// cached for a year, everything else revalidated on every visit.
import fastifyStatic from '@fastify/static'
import type { FastifyInstance } from 'fastify'
import { join } from 'node:path'
import { ADDRESSED_FILES } from './site-address.js'
import { EMBED_SCRIPT_PATH } from '../../contract/partners.js'

/**
 * `landingPageServed`: the HTML goes out through landing-page.ts (with its form token), never as
 * the file it was made from.
 */
export async function staticFiles(app: FastifyInstance, { root, landingPageServed }: { root: string; landingPageServed: boolean }) {
  await app.register(fastifyStatic, {
    root,
    wildcard: false,
    index: landingPageServed ? false : ['index.html'],
    // Every language's page goes out through landing-page.ts (the root's and each folder's index.html).
    // So do robots.txt and sitemap.xml, with the address the server runs with (site-address.ts).
    globIgnore: landingPageServed
      ? [
          'index.html',
          'index.html.*',
          '*/index.html',
          '*/index.html.*',
          ...ADDRESSED_FILES.flatMap(({ path }) => [path.slice(1), `${path.slice(1)}.*`]),
        ]
      : [],
    preCompressed: true,
    // The compressed copies are served in place of their original, never by their own name; the
    // operators' page only at /admin (server/operators), the 404 pages only as an answer.
    allowedPath: (pathname) => !/\.(br|gz)$/.test(pathname) && pathname !== '/admin.html' && !/^\/(?:[a-z]{2}\/)?404\.html$/.test(pathname),
    cacheControl: false,
    setHeaders(reply, path) {
      const hashed = path.includes(`${join(root, 'assets')}`)
      // A partner's script keeps its address (docs/partners.md): clubs' visitors get a new one within the hour.
      const embed = path.startsWith(join(root, EMBED_SCRIPT_PATH))
      reply.header('cache-control', hashed ? 'public, max-age=31536000, immutable' : embed ? 'public, max-age=3600' : 'no-cache')
      // The answer depends on Accept-Encoding: a shared cache must not give brotli to everyone.
      reply.header('vary', 'Accept-Encoding')
    },
  })
}
