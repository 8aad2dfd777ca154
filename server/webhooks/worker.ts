// The webhook worker, in the server process (docs/decisions/018-webhooks.md). It claims due
// deliveries (leased, SKIP LOCKED on PostgreSQL: several instances never send one at once; a dead
// instance's lease runs out and another takes it), signs each with the Standard Webhooks library,
// POSTs it to a checked public address, and records the attempt: delivered on a 2xx; tried again
// on the schedule (Retry-After honoured) otherwise; the endpoint disabled on a 410 or after five
// days of failures. It also announces the states reached once (a campaign finished, a country's
// launch meter full) and purges the delivery log after 30 days.
import { request as httpRequest, type IncomingMessage } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { Webhook } from 'standardwebhooks'
import { WEBHOOK_FAILING_MS, WEBHOOK_LOG_KEPT_MS, WEBHOOK_RETRY_MS, type WebhookDisabledReason } from '../../contract/webhooks.js'
import { metersOf } from '../store/growth/launch.js'
import type { ClaimedDelivery, WaitlistStore, WebhookOutcome } from '../store/types.js'
import { checkedLookup, urlProblem } from './address.js'

/** How long an endpoint has to answer. */
export const WEBHOOK_TIMEOUT_MS = 15_000
/** How much of an answer is read (and the log keeps 200 bytes of it). */
export const WEBHOOK_READ_BYTES = 4096
const LOG_BYTES = 200
/** A claim's lease: twice the timeout, so a delivery under way is never taken by another. */
const LEASE_MS = 2 * WEBHOOK_TIMEOUT_MS
/** The longest wait a Retry-After may ask for. */
const RETRY_AFTER_MAX_MS = 10 * 60 * 60_000

interface WorkerLog {
  warn: (details: object, message: string) => void
}

export interface WebhookWorkerOptions {
  store: WaitlistStore
  log: WorkerLog
  /** WEBHOOK_ALLOW_PRIVATE */
  allowPrivate: boolean
  /** WEBHOOK_RETRY_SCALE */
  retryScale: number
  /** An endpoint was disabled: tell the owners (a mail through the outbox). */
  onDisabled?: (endpointId: number, reason: WebhookDisabledReason) => Promise<void>
  pollMs?: number
  /** How often the states reached once are looked at. */
  watchMs?: number
  batchSize?: number
}

export interface WebhookWorker {
  start(): void
  /** Something is due now (a test event, a resend): look now rather than at the next poll. */
  nudge(): void
  /** Finishes the deliveries under way and stops. */
  stop(): Promise<void>
}

/** What one POST came to. */
interface Answer {
  status: number | null
  body: string
  retryAfter: string | null
  error: string | null
}

/** POSTs the body to the URL: the checked address only, no redirect followed, 4 KB read at most. */
export function post(url: string, headers: Record<string, string>, body: string, allowPrivate: boolean): Promise<Answer> {
  const problem = urlProblem(url, allowPrivate)
  if (problem) return Promise.resolve({ status: null, body: '', retryAfter: null, error: `refused: ${problem.replace(/^url: /, '')}` })
  return new Promise((resolve) => {
    const target = new URL(url)
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest
    let settled = false
    const finish = (answer: Answer) => {
      if (settled) return
      settled = true
      resolve(answer)
    }
    const req = send(
      target,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        lookup: checkedLookup(allowPrivate),
        agent: false,
        timeout: WEBHOOK_TIMEOUT_MS,
      },
      (res: IncomingMessage) => {
        const chunks: Buffer[] = []
        let size = 0
        const done = () =>
          finish({
            status: res.statusCode ?? null,
            body: Buffer.concat(chunks).subarray(0, WEBHOOK_READ_BYTES).toString('utf8'),
            retryAfter: typeof res.headers['retry-after'] === 'string' ? res.headers['retry-after'] : null,
            error: null,
          })
        res.on('data', (chunk: Buffer) => {
          chunks.push(chunk)
          size += chunk.length
          if (size >= WEBHOOK_READ_BYTES) {
            done()
            res.destroy()
          }
        })
        res.on('end', done)
        res.on('error', done)
        res.on('close', done)
      },
    )
    req.on('timeout', () => req.destroy(new Error(`no answer within ${WEBHOOK_TIMEOUT_MS / 1000} s`)))
    req.on('error', (error: Error) => finish({ status: null, body: '', retryAfter: null, error: error.message }))
    req.end(body)
  })
}

/** A Retry-After's wait in milliseconds (seconds, or an HTTP date), or null. */
export function retryAfterMs(value: string | null, now = Date.now()): number | null {
  if (value === null) return null
  const seconds = /^\d+$/.test(value.trim()) ? Number(value) * 1000 : Date.parse(value) - now
  return Number.isFinite(seconds) ? Math.min(RETRY_AFTER_MAX_MS, Math.max(0, seconds)) : null
}

/** The body, headers and signatures of a delivery (the old secret signs too for a day after a rotation). */
export function signed(delivery: ClaimedDelivery, at: Date): { body: string; headers: Record<string, string> } {
  const data = delivery.email === null ? delivery.data : { ...delivery.data, email: delivery.email }
  const body = JSON.stringify({ type: delivery.type, timestamp: delivery.eventAt, data })
  const { secret, previous_secret: previous, previous_until: until } = delivery.endpoint
  const secrets = [secret, ...(previous && until && Date.parse(until) > at.getTime() ? [previous] : [])]
  return {
    body,
    headers: {
      'content-type': 'application/json',
      'user-agent': 'Kennect-Webhooks/1.0',
      'webhook-id': delivery.messageId,
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': secrets.map((key) => new Webhook(key).sign(delivery.messageId, at, body)).join(' '),
    },
  }
}

/** What an answer means for the delivery and its endpoint. */
export function outcomeOf(
  delivery: ClaimedDelivery,
  answer: Answer,
  at: Date,
  durationMs: number,
  retryScale: number,
  random = Math.random,
): WebhookOutcome {
  const base = {
    status: answer.status,
    error: answer.error,
    response: answer.error === null ? answer.body.slice(0, LOG_BYTES) : null,
    durationMs,
    at: at.toISOString(),
  }
  if (answer.status !== null && answer.status >= 200 && answer.status < 300)
    return { ...base, state: 'delivered', nextAttemptAt: null, disable: null }
  if (answer.status === 410) return { ...base, state: 'failed', nextAttemptAt: null, disable: 'gone' }
  const failingSince = Date.parse(delivery.endpoint.failing_since ?? base.at)
  if (at.getTime() - failingSince >= WEBHOOK_FAILING_MS) return { ...base, state: 'failed', nextAttemptAt: null, disable: 'failing' }
  const scheduled = WEBHOOK_RETRY_MS[delivery.attempt - 1]
  if (scheduled === undefined) return { ...base, state: 'failed', nextAttemptAt: null, disable: null }
  const asked = answer.status === 429 || answer.status === 503 ? retryAfterMs(answer.retryAfter, at.getTime()) : null
  const wait = asked ?? scheduled * retryScale * (0.9 + 0.2 * random())
  return { ...base, state: 'pending', nextAttemptAt: new Date(at.getTime() + wait).toISOString(), disable: null }
}

export function createWebhookWorker(options: WebhookWorkerOptions): WebhookWorker {
  const { store, log, allowPrivate, retryScale } = options
  const pollMs = options.pollMs ?? 1000
  const watchMs = options.watchMs ?? 10_000
  const batchSize = options.batchSize ?? 10
  let running = false
  let timer: NodeJS.Timeout | undefined
  let wake: (() => void) | undefined
  let loop: Promise<void> | undefined
  let lastWatch = 0
  let lastPurge = 0

  async function deliver(delivery: ClaimedDelivery) {
    const at = new Date()
    const { body, headers } = signed(delivery, at)
    const started = performance.now()
    const answer = await post(delivery.endpoint.url, headers, body, allowPrivate)
    const outcome = outcomeOf(delivery, answer, at, Math.round(performance.now() - started), retryScale)
    await store.webhooks.settle(delivery, outcome)
    if (outcome.disable !== null) {
      log.warn({ endpoint: delivery.endpoint.id, reason: outcome.disable }, 'webhooks: an endpoint was disabled')
      await options
        .onDisabled?.(delivery.endpoint.id, outcome.disable)
        .catch((error: unknown) => log.warn({ err: error }, 'webhooks: the owners were not told'))
    }
  }

  /** Campaigns that finished and countries whose meter is full, each announced once. */
  async function watch() {
    for (const campaign of await store.campaigns.list())
      if (campaign.status === 'finished' && campaign.recipients > 0)
        await store.webhooks.announce(`campaign:${campaign.id}`, 'campaign.finished', {
          id: campaign.id,
          recipients: campaign.recipients,
          // As the campaign's own figures say them: handed to the mail server, given up, bounced for good.
          sent: campaign.delivery.sent,
          failed: campaign.failed,
          bounced: campaign.delivery.hardBounced,
        })
    const [counts, targets] = await Promise.all([store.growth.countryCounts(), store.growth.launchTargets()])
    for (const meter of metersOf(counts, targets))
      if (meter.ready)
        await store.webhooks.announce(`country:${meter.country}`, 'country.ready', {
          country: meter.country,
          breeders: meter.breeders,
          owners: meter.owners,
          target: meter.target,
        })
  }

  async function turn() {
    const now = Date.now()
    if (now - lastWatch >= watchMs) {
      lastWatch = now
      await watch()
    }
    if (now - lastPurge >= 60 * 60_000) {
      lastPurge = now
      await store.webhooks.purge(new Date(now - WEBHOOK_LOG_KEPT_MS).toISOString())
    }
    const claimed = await store.webhooks.claim(batchSize, LEASE_MS)
    await Promise.all(
      claimed.map((delivery) =>
        deliver(delivery).catch((error: unknown) => log.warn({ err: error }, 'webhooks: a delivery was not recorded')),
      ),
    )
    return claimed.length
  }

  async function run() {
    while (running) {
      let busy = 0
      try {
        busy = await turn()
      } catch (error) {
        log.warn({ err: error }, 'webhooks: the store did not answer; trying again')
      }
      if (!running) break
      if (busy === batchSize) continue
      await new Promise<void>((resolve) => {
        wake = resolve
        timer = setTimeout(resolve, pollMs)
      })
      wake = undefined
    }
  }

  return {
    start() {
      if (running) return
      running = true
      loop = run()
    },
    nudge() {
      if (timer) clearTimeout(timer)
      wake?.()
    },
    async stop() {
      running = false
      if (timer) clearTimeout(timer)
      wake?.()
      await loop
    },
  }
}
