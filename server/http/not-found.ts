// Unknown addresses. A person's browser gets the built 404 page with a way home; API clients, and
// the API's paths whoever asks, keep the JSON error: never an HTML or empty 404 (supabase-js reads
// those as success).
import type { FastifyReply, FastifyRequest } from 'fastify'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { DEFAULT_LOCALE, isLocale, LOCALES, localePath } from '../../contract/locales.js'
import { ADMIN_API_PREFIX, PUBLIC_API_PREFIX, REST_PREFIX } from '../../contract/paths.js'
import { HttpError } from './errors.js'

const API_PATHS = [REST_PREFIX, ADMIN_API_PREFIX, PUBLIC_API_PREFIX]

export function notFoundHandler(pageRoot: string) {
  // Each language's page (404.html, de/404.html…); an address under /de/ gets the German one.
  const pages = new Map<string, string>()
  for (const locale of LOCALES) {
    const path = join(pageRoot, localePath(locale), '404.html')
    if (existsSync(path)) pages.set(locale, readFileSync(path, 'utf8'))
  }
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const first = /^\/([a-z]{2})(?:\/|$)/.exec(request.url)?.[1]
    const page = pages.get(isLocale(first) ? first : DEFAULT_LOCALE)
    const api = API_PATHS.some(
      (prefix) => request.url === prefix || request.url.startsWith(`${prefix}/`) || request.url.startsWith(`${prefix}?`),
    )
    if (page && !api && request.headers.accept?.includes('text/html')) {
      return reply.code(404).type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(page)
    }
    throw new HttpError(404, 'not_found', `Not found: ${request.method} ${request.url.split('?')[0]}`)
  }
}
