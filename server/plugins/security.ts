import cors from '@fastify/cors'
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import type { Config } from '../config.js'

/** Headers a browser page reading our answers may see (PROTOCOL.md, CORS). */
const EXPOSED_HEADERS = ['Content-Range', 'Retry-After', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset']
const PREFLIGHT_MAX_AGE_S = 3600

async function security(app: FastifyInstance, { config }: { config: Config }) {
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
}

export default fp(security, { name: 'security' })
