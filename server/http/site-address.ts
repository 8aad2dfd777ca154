// The page's public address as the server runs, not as it was built. The build writes its SITE_URL
// (or the default, http://localhost:3000) into each landing page (canonical link, alternates, share
// tags, JSON-LD, the manifest), robots.txt and sitemap.xml; a build is made once and may run
// anywhere (a production install cannot rebuild), so the server puts the address it runs with
// (app.siteUrl(): SITE_URL, else where it listens) in the build's place as it sends them.
import type { FastifyInstance } from 'fastify'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

/** The files besides the landing pages that name the address. */
export const ADDRESSED_FILES = [
  { path: '/robots.txt', type: 'text/plain; charset=utf-8' },
  { path: '/sitemap.xml', type: 'application/xml; charset=utf-8' },
] as const

/** The address a built page was made for: its x-default alternate's (the default language's page), without the trailing slash. */
export function builtSiteUrl(html: string): string | undefined {
  return /<link rel="alternate" hreflang="x-default" href="([^"]+?)\/?"/.exec(html)?.[1]
}

/**
 * The text with the build's address replaced by the current one. The configuration admits only
 * addresses of these characters (server/config.ts), so nothing needs escaping in HTML, XML or JSON.
 */
export function readdressed(text: string, built: string | undefined, current: string): string {
  return built === undefined || built === current ? text : text.split(built).join(current)
}

/** The last text made for an address: the address changes once at most (when the server listens). */
export function perAddress<T>(make: (current: string) => T): (current: string) => T {
  let last: { current: string; value: T } | undefined
  return (current) => {
    if (last?.current !== current) last = { current, value: make(current) }
    return last.value
  }
}

/** robots.txt and sitemap.xml with the address the server runs with (the static files leave them out). */
export async function addressedFiles(app: FastifyInstance, { root, built }: { root: string; built: string | undefined }) {
  for (const { path, type } of ADDRESSED_FILES) {
    const file = join(root, path)
    if (!existsSync(file)) continue
    const text = readFileSync(file, 'utf8')
    const current = perAddress((address) => readdressed(text, built, address))
    app.get(path, (_request, reply) => reply.type(type).header('cache-control', 'no-cache').send(current(app.siteUrl())))
  }
}
