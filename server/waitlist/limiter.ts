// Per-IP limits on sign-ups (docs/protocol.md, "Rate limit"): a minute and an hour window, counted
// by the store's counters (in memory on SQLite, shared by every instance on PostgreSQL). One
// limiter serves both ways in, the PostgREST insert and the no-script form, so a client cannot
// double its allowance by using both.
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { Config } from '../config.js'
import type { WindowCounters } from '../store/index.js'
import { clientKey } from './client-key.js'

const MINUTE_MS = 60_000
const HOUR_MS = 60 * MINUTE_MS

/**
 * Counts one sign-up attempt of the request's client and sets the X-RateLimit headers; answers the
 * seconds to wait when a window is exceeded, undefined otherwise. Each route shapes its own answer.
 */
export interface InsertLimiter {
  (request: FastifyRequest, reply: FastifyReply): Promise<number | undefined>
  /** false when both limits are 0: the limiter counts nothing and always answers undefined. */
  readonly counts: boolean
}

const unlimited: InsertLimiter = Object.assign(async () => undefined, { counts: false })

/** The limiter of RATE_LIMIT_PER_MINUTE and RATE_LIMIT_PER_HOUR; with both at 0, it counts nothing. */
export function createInsertLimiter(config: Config, counters: WindowCounters): InsertLimiter {
  const windows = [
    { name: 'minute', max: config.RATE_LIMIT_PER_MINUTE, windowMs: MINUTE_MS },
    { name: 'hour', max: config.RATE_LIMIT_PER_HOUR, windowMs: HOUR_MS },
  ].filter((window) => window.max > 0)
  if (windows.length === 0) return unlimited

  return Object.assign(
    async function limitInsert(request: FastifyRequest, reply: FastifyReply) {
      // request.ip honours TRUST_PROXY: behind a proxy, the client's address, not the proxy's.
      const client = clientKey(request.ip)
      const counts = await counters.hit(windows.map(({ name, windowMs }) => ({ key: `insert:${name}:${client}`, windowMs })))
      const states = windows.map((window, i) => {
        const { hits, resetMs } = counts[i] ?? { hits: 0, resetMs: 0 }
        return {
          max: window.max,
          remaining: Math.max(0, window.max - hits),
          exceeded: hits > window.max,
          resetS: Math.ceil(resetMs / 1000),
        }
      })
      // Report the window closest to its limit: the one a client must respect first.
      const tightest = states.find((s) => s.exceeded) ?? states.reduce((a, s) => (s.remaining < a.remaining ? s : a))
      reply.header('x-ratelimit-limit', tightest.max)
      reply.header('x-ratelimit-remaining', tightest.remaining)
      reply.header('x-ratelimit-reset', tightest.resetS)
      return tightest.exceeded ? Math.max(1, tightest.resetS) : undefined
    },
    { counts: true },
  )
}
