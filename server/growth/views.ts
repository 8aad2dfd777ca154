// The funnel's first step, counted as the server sends the landing page (docs/decisions/015-growth.md):
// a person's view of the document, never a bot's, a link preview's, a prefetch's or a HEAD. Daily
// visitors are told apart by a keyed hash of the client's address and User-Agent, under a secret
// of the day (store.growth.visitorKey); no cookie, and nothing per visitor outlives the day.
// Views wait in memory for at most FLUSH_MS and go to the store together; counting never fails or
// slows a page: a store error drops that second's counts and is logged at most once a minute.
import type { FastifyRequest } from 'fastify'
import type { IncomingHttpHeaders } from 'node:http'
import { createHmac } from 'node:crypto'
import { isbot } from 'isbot'
import { DIRECT_SOURCE } from '../../contract/growth.js'
import { MAX_ATTRIBUTION_LENGTH, readCampaign } from '../../contract/waitlist.js'
import type { GrowthStore, ViewBatch } from '../store/types.js'
import { clientKey } from '../waitlist/client-key.js'
import { type Warner, warnAtMostOnce } from './log-once.js'

/** How long counted views wait before they are written, all together. */
export const FLUSH_MS = 1000
/** Views waiting at most; past that (a flood the store cannot keep up with), new ones are dropped. */
const MAX_PENDING = 100_000
/** Distinct sources a process counts per day; past that, new ones count as "other" (a flood of made-up utm_source values). */
const MAX_SOURCES_A_DAY = 1000
export const OTHER_SOURCE = 'other'

const header = (headers: IncomingHttpHeaders, name: string) => {
  const value = headers[name]
  return (Array.isArray(value) ? value.join(',') : (value ?? '')).trim()
}

/**
 * Whether the request is a person's view of the page: a GET (not HEAD) of a document (or with no
 * fetch metadata, as older browsers send), not a prefetch or prerender, not a bot or a link
 * preview (isbot; an empty User-Agent is taken for a bot too).
 */
export function isCountedView(method: string, headers: IncomingHttpHeaders): boolean {
  if (method !== 'GET') return false
  const destination = header(headers, 'sec-fetch-dest')
  if (destination !== '' && destination !== 'document') return false
  // Sec-Purpose: prefetch (and prefetch;prerender) from speculation rules; Purpose and X-Moz from
  // <link rel=prefetch> in older browsers; X-Purpose: preview from link previews.
  if (header(headers, 'sec-purpose') !== '') return false
  const purpose = `${header(headers, 'purpose')} ${header(headers, 'x-purpose')} ${header(headers, 'x-moz')}`.toLowerCase()
  if (/prefetch|preview|prerender/.test(purpose)) return false
  const userAgent = header(headers, 'user-agent')
  return userAgent !== '' && !isbot(userAgent)
}

/** Where a view came from, named as sign-ups' sources are: utm_source, else the referring host, else "direct". */
export function viewSource(url: string, headers: IncomingHttpHeaders): string {
  const query = url.indexOf('?')
  const campaign = query < 0 ? undefined : readCampaign(new URLSearchParams(url.slice(query + 1))).utm_source
  if (campaign) return campaign
  const referer = header(headers, 'referer')
  if (referer && URL.canParse(referer)) {
    const from = new URL(referer)
    const own = header(headers, 'host')
    if ((from.protocol === 'https:' || from.protocol === 'http:') && from.host !== own) return from.host.slice(0, MAX_ATTRIBUTION_LENGTH)
  }
  return DIRECT_SOURCE
}

export interface ViewCounter {
  /** Counts the request if it is a person's view; never throws, never waits. */
  record(request: FastifyRequest): void
  /** Writes what is waiting now (the funnel's answer includes the views of this very second). */
  flush(): Promise<void>
  /** Writes what is waiting and stops. */
  close(): Promise<void>
}

interface Pending {
  day: string
  source: string
  /** The client's address (per /64 for IPv6) and User-Agent: hashed with the day's key at the flush. */
  who: string
}

export function createViewCounter(options: { growth: GrowthStore; log: Warner; enabled: boolean; flushMs?: number }): ViewCounter {
  const { growth, enabled } = options
  const warn = warnAtMostOnce(options.log)
  let pending: Pending[] = []
  let timer: NodeJS.Timeout | undefined
  let writing: Promise<void> = Promise.resolve()
  let closed = false
  const sources = { day: '', names: new Set<string>() }

  function sourceOf(day: string, request: FastifyRequest): string {
    if (sources.day !== day) Object.assign(sources, { day, names: new Set<string>() })
    const source = viewSource(request.url, request.headers)
    if (sources.names.has(source)) return source
    if (sources.names.size >= MAX_SOURCES_A_DAY) return OTHER_SOURCE
    sources.names.add(source)
    return source
  }

  async function write(batch: Pending[]): Promise<void> {
    if (batch.length === 0) return
    try {
      const byDay = new Map<string, Pending[]>()
      for (const view of batch) byDay.set(view.day, [...(byDay.get(view.day) ?? []), view])
      const counts: ViewBatch[] = []
      for (const [day, views] of byDay) {
        const key = await growth.visitorKey(day)
        const entries = new Map<string, ViewBatch>()
        const hashed = new Set<string>()
        for (const view of views) {
          let entry = entries.get(view.source)
          if (!entry) entries.set(view.source, (entry = { day, source: view.source, views: 0, visitors: [] }))
          entry.views++
          // 16 bytes of HMAC-SHA256: enough to tell a day's visitors apart, nothing to reverse.
          const hash = createHmac('sha256', key).update(view.who).digest().subarray(0, 16)
          const id = hash.toString('base64')
          if (hashed.has(id)) continue
          hashed.add(id)
          entry.visitors.push(hash) // a visitor belongs to the source of their first view
        }
        counts.push(...entries.values())
      }
      await growth.addViews(counts)
    } catch (error) {
      warn({ err: error, views: batch.length }, 'page views not counted: the store failed (the page was sent as usual)')
    }
  }

  function flush(): Promise<void> {
    if (timer) clearTimeout(timer)
    timer = undefined
    const batch = pending
    pending = []
    writing = writing.then(() => write(batch))
    return writing
  }

  return {
    record(request) {
      if (!enabled || closed || !isCountedView(request.method, request.headers)) return
      if (pending.length >= MAX_PENDING) {
        warn({ pending: pending.length }, 'page views not counted: too many waiting to be written')
        return
      }
      const day = new Date().toISOString().slice(0, 10)
      pending.push({ day, source: sourceOf(day, request), who: `${clientKey(request.ip)}\n${header(request.headers, 'user-agent')}` })
      timer ??= setTimeout(() => void flush(), options.flushMs ?? FLUSH_MS).unref()
    },
    flush,
    close: async () => {
      closed = true
      await flush()
    },
  }
}
