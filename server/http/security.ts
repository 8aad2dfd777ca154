import cors from '@fastify/cors'
import helmet from '@fastify/helmet'
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { createHash } from 'node:crypto'
import type { Config } from '../config.js'

/**
 * The security headers of a JSON answer: it is never a document, so no script may run and
 * nothing may frame it, and it needs none of the document protections helmet gives the page.
 * Computed once: every sign-up carries them (and, on a busy launch day, every byte counts).
 */
export const API_SECURITY_HEADERS = Object.freeze({
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
})

/** Headers a browser page reading our answers may see (docs/protocol.md, "CORS"). */
const EXPOSED_HEADERS = ['Content-Range', 'Retry-After', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset']
const PREFLIGHT_MAX_AGE_S = 3600

/**
 * The CSP sources that allow the page's inline scripts, one `'sha256-…'` per script in `html`:
 * the build's loader that imports the bundle after the first paint (scripts/build.mjs,
 * `deferScript`). JSON-LD and the islands' words are data, never run, and need none.
 */
export function inlineScriptSources(html: string): string[] {
  return [...html.matchAll(/<script(?![^>]*\bsrc=)(?![^>]*application\/(?:ld\+)?json)[^>]*>([^]*?)<\/script>/g)].map(
    ([, code = '']) => `'sha256-${createHash('sha256').update(code).digest('base64')}'`,
  )
}

async function security(app: FastifyInstance, { config, scriptSources }: { config: Config; scriptSources: string[] }) {
  const anyOrigin = config.CORS_ORIGINS.includes('*')
  // CORS headers on every answer, errors included; preflight answered 204 before any other hook,
  // so it never needs an apikey and is never rate limited.
  await app.register(cors, {
    origin: anyOrigin ? '*' : config.CORS_ORIGINS,
    methods: ['GET', 'HEAD', 'POST', 'PATCH', 'DELETE', 'OPTIONS'],
    exposedHeaders: EXPOSED_HEADERS,
    maxAge: PREFLIGHT_MAX_AGE_S,
    strictPreflight: false,
  })
  // Security headers for the page and everything else outside /rest/v1 (whose routes opt out and
  // send API_SECURITY_HEADERS). Scripts only from our origin and the page's own inline loader;
  // styles may be inline because the critical CSS is inlined in the HTML and Radix sets style
  // attributes. No framing, no plugins, forms post only to us.
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", ...scriptSources],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:'],
        fontSrc: ["'self'"],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        // The page's manifest is a data: URL (web/share.ts).
        manifestSrc: ["'self'", 'data:'],
      },
    },
    xFrameOptions: { action: 'deny' },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    // The API is read across origins by pages using CORS; resources need no embedding limits.
    crossOriginResourcePolicy: { policy: 'cross-origin' },
    crossOriginEmbedderPolicy: false,
  })
}

export default fp(security, { name: 'security' })
