// Per-IP limits on sign-ups (PROTOCOL.md, Rate limit): a minute and an hour window, counted by
// @fastify/rate-limit's in-memory LRU store. One limiter serves both ways in, the PostgREST insert
// and the no-script form, so a client cannot double its allowance by using both.
import rateLimit from '@fastify/rate-limit'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { Config } from '../config.js'

const MINUTE_MS = 60_000
const HOUR_MS = 60 * MINUTE_MS

type Check = Awaited<ReturnType<ReturnType<FastifyInstance['createRateLimit']>>>
type Counted = Extract<Check, { isAllowed: false }>

/**
 * Counts one sign-up attempt of the request's client and sets the X-RateLimit headers; answers the
 * seconds to wait when a window is exceeded, undefined otherwise. Each route shapes its own answer.
 */
export type InsertLimiter = (request: FastifyRequest, reply: FastifyReply) => Promise<number | undefined>

/** The limiter; undefined when both limits are off. Registered once, on the root instance. */
export async function createInsertRateLimit(app: FastifyInstance, config: Config): Promise<InsertLimiter | undefined> {
  const windows = [
    { max: config.RATE_LIMIT_PER_MINUTE, timeWindow: MINUTE_MS },
    { max: config.RATE_LIMIT_PER_HOUR, timeWindow: HOUR_MS },
  ].filter((window) => window.max > 0)
  if (windows.length === 0) return undefined

  await app.register(rateLimit, { global: false })
  // request.ip honours TRUST_PROXY: behind a proxy, the client's address, not the proxy's.
  const limiters = windows.map((window) => app.createRateLimit({ ...window, keyGenerator: (request) => request.ip }))

  return async function limitInsert(request: FastifyRequest, reply: FastifyReply): Promise<number | undefined> {
    const counts: Counted[] = []
    for (const limiter of limiters) {
      const check = await limiter(request)
      if (!check.isAllowed) counts.push(check)
    }
    // Report the window closest to its limit: the one a client must respect first.
    const tightest = counts.find((c) => c.isExceeded) ?? counts.reduce<Counted | undefined>((a, c) => (!a || c.remaining < a.remaining ? c : a), undefined)
    if (!tightest) return undefined
    reply.header('x-ratelimit-limit', tightest.max)
    reply.header('x-ratelimit-remaining', tightest.remaining)
    reply.header('x-ratelimit-reset', tightest.ttlInSeconds)
    return tightest.isExceeded ? Math.max(1, tightest.ttlInSeconds) : undefined
  }
}
