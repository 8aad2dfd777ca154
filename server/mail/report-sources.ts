// The mail providers that report bounces and complaints by webhook (docs/decisions/019-suppression.md),
// as one table: each provider's address, body limit, how it proves a request is its own (`verify`)
// and how its body says its events (`parse`), all in one event shape. The routes are made from the
// table (provider-hooks.ts); a provider is a row here, not a route written again.
import { createHmac, type KeyObject, timingSafeEqual } from 'node:crypto'
import type { MailEventType } from '../../contract/mail-events.js'
import { isObject, messageKeyOf, text } from './report-fields.js'
import { SENDGRID_SIGNATURE_HEADER, SENDGRID_TIMESTAMP_HEADER, sendgridEvent, sendgridSigned } from './sendgrid.js'
import { sesEvents, snsMessage, type SnsVerifier, snsVerifier, subscribeUrlAllowed } from './sns.js'

/** One event of a provider's report: what happened, to whom, which mail (when it says), its own id. */
export interface ProviderEvent {
  type: MailEventType
  email: string
  messageKey: string | null
  eventId: string
}

/** What the routes are configured with (server/config.ts). */
export interface ProviderHookOptions {
  postmarkAuth: string | undefined
  mailgunKey: string | undefined
  /** SendGrid's verification key, read at start. */
  sendgridKey: KeyObject | undefined
  /** The one SNS topic whose SES notifications are taken, and the addresses its certificates may come from. */
  ses: { topicArn: string; certUrlPattern: string } | undefined
}

export interface ReportRequest {
  headers: Record<string, string | string[] | undefined>
  /** The body as sent (text) for a source whose signature covers its bytes; parsed JSON otherwise. */
  body: unknown
  log: { info: (details: object, message: string) => void; warn: (details: object, message: string) => void }
}

/** A request answered without recording anything (refused, not ours, or a message about the channel itself). */
export interface Answer {
  status: number
  body: Record<string, unknown>
  headers?: Record<string, string>
}

/** A request proved its provider's: what it carries, and the single-use keys that must not come twice. */
export interface Proven {
  payload: unknown
  once?: readonly string[]
}

export interface ReportSource<Settings> {
  /** Where the provider posts: /hooks/mail/<name>. */
  name: string
  bodyLimit: number
  /** The body as sent: a signature covers its bytes (SendGrid's, SNS's). */
  raw: boolean
  /** How long its events' ids and its single-use keys are remembered: at least its retry window. */
  rememberMs: number
  /** Its settings, read once when the routes are made, or undefined when it is not configured (its address answers 404). */
  settings(options: ProviderHookOptions): Settings | undefined
  verify(request: ReportRequest, settings: Settings): Promise<Proven | Answer>
  /** Its events, or an answer for a body it does not take. */
  parse(payload: unknown): ProviderEvent[] | Answer
}

const HOUR_MS = 60 * 60 * 1000
/** A provider's payload is a few kilobytes; anything bigger is not one. */
const MAX_BODY = 64 * 1024
/** SendGrid posts its events in batches (every 30 s, or sooner at 768 KB): a wave's deferrals fill one. */
const SENDGRID_MAX_BODY = 1024 * 1024
/** SNS messages are at most 256 KB. */
const SNS_MAX_BODY = 256 * 1024
/** Mailgun's signature older (or newer) than this is refused: its documentation's window. */
export const MAILGUN_MAX_AGE_S = 15 * 60
/**
 * SendGrid's signed timestamp older than this is refused: SendGrid retries an event "at increasing
 * intervals for up to 24 hours after the event occurs" (its Event Webhook troubleshooting page), so
 * no genuine request is older. Its event ids are remembered at least as long.
 */
export const SENDGRID_MAX_AGE_S = 24 * 60 * 60
/**
 * An SNS notification whose signed `Timestamp` (when it was published) is older than this is refused,
 * as SendGrid's old events are: SNS gives up on an HTTPS endpoint within an hour ("the total policy
 * retry time for an HTTP/S endpoint cannot be greater than 3,600 seconds", its delivery retries
 * page), so no genuine delivery is a day old. Its message ids are remembered longer (72 hours).
 */
export const SES_MAX_AGE_S = 24 * 60 * 60
/** A signed timestamp ahead of our clock by more than this is refused too. */
const CLOCK_SKEW_S = 5 * 60

const unauthorized: Answer = { status: 401, body: { error: 'unauthorized' } }
const ignored: Answer = { status: 200, body: { recorded: 0 } }
export const isAnswer = (value: unknown): value is Answer => isObject(value) && typeof value.status === 'number' && isObject(value.body)

const sameText = (a: string, b: string) => {
  const left = Buffer.from(a)
  const right = Buffer.from(b)
  return left.length === right.length && timingSafeEqual(left, right)
}
const headerOf = (request: ReportRequest, name: string) => String(request.headers[name] ?? '')
/** A signed moment (seconds since 1970) within `maxAge` of now, and not ahead of it (NaN is neither). */
const freshAt = (seconds: number, maxAgeS: number) => {
  const age = Date.now() / 1000 - seconds
  return age <= maxAgeS && age >= -CLOCK_SKEW_S
}
/** A signed timestamp (seconds, as digits) within `maxAge` of now, and not ahead of it. */
const fresh = (timestamp: string, maxAgeS: number) => /^\d{1,12}$/.test(timestamp) && freshAt(Number(timestamp), maxAgeS)

/**
 * Postmark's MessageID is its own, but it hands back the metadata a mail carried in
 * `X-PM-Metadata-*` headers (and takes them off before delivery): each mail names itself there.
 */
export const POSTMARK_METADATA_KEY = 'kennect-message'

/** Postmark's record as the event it is, or null for a kind we do not act on. */
export function postmarkEvent(body: unknown): ProviderEvent | null {
  if (!isObject(body)) return null
  const email = text(body.Email)
  const id = body.ID
  if (!email || (typeof id !== 'number' && typeof id !== 'string')) return null
  const metadata = isObject(body.Metadata) ? body.Metadata : {}
  // Header names are not case-sensitive, and mailers write them as they like (Nodemailer: X-Pm-Metadata-Kennect-Message).
  const messageKey = text(Object.entries(metadata).find(([name]) => name.toLowerCase() === POSTMARK_METADATA_KEY)?.[1])
  const base = {
    email,
    messageKey: messageKey && /^[A-Za-z0-9-]{1,64}$/.test(messageKey) ? messageKey : null,
    eventId: `postmark:${body.RecordType}:${id}`,
  }
  if (body.RecordType === 'SpamComplaint') return { ...base, type: 'complaint' }
  if (body.RecordType !== 'Bounce') return null
  if (body.Type === 'HardBounce' || body.Type === 'BadEmailAddress') return { ...base, type: 'hard-bounce' }
  if (body.Type === 'SoftBounce' || body.Type === 'Transient' || body.Type === 'DnsError') return { ...base, type: 'soft-bounce' }
  if (body.Type === 'SpamComplaint') return { ...base, type: 'complaint' }
  return null
}

/** Mailgun's event as ours, or null for a kind we do not act on. */
export function mailgunEvent(data: unknown): ProviderEvent | null {
  if (!isObject(data)) return null
  const email = text(data.recipient)
  const id = text(data.id)
  if (!email || !id) return null
  const headers = isObject(data.message) && isObject(data.message.headers) ? data.message.headers : {}
  const messageKey = messageKeyOf(text(headers['message-id']))
  const base = { email, messageKey, eventId: `mailgun:${id}` }
  if (data.event === 'complained') return { ...base, type: 'complaint' }
  if (data.event !== 'failed') return null
  return { ...base, type: data.severity === 'temporary' ? 'soft-bounce' : 'hard-bounce' }
}

const postmark: ReportSource<string> = {
  name: 'postmark',
  bodyLimit: MAX_BODY,
  raw: false,
  rememberMs: 72 * HOUR_MS,
  settings: (options) => options.postmarkAuth,
  // Basic auth in the webhook's URL.
  verify: async (request, auth) => {
    const given = /^Basic\s+(\S+)$/i.exec(headerOf(request, 'authorization'))?.[1]
    const credentials = given ? Buffer.from(given, 'base64').toString('utf8') : ''
    if (!sameText(credentials, auth)) return { ...unauthorized, headers: { 'www-authenticate': 'Basic realm="mail events"' } }
    return { payload: request.body }
  },
  parse: (payload) => {
    const event = postmarkEvent(payload)
    return event ? [event] : ignored
  },
}

const mailgun: ReportSource<string> = {
  name: 'mailgun',
  bodyLimit: MAX_BODY,
  raw: false,
  // Its signatures live 15 minutes either way: its tokens are remembered twice as long.
  rememberMs: 2 * MAILGUN_MAX_AGE_S * 1000,
  settings: (options) => options.mailgunKey,
  // An HMAC of the timestamp and token under the signing key. The signature covers those, not the
  // event: a token is taken once, whatever event it came with, an ignored one too (in the store, so
  // every instance and the next start know it), or a signed request seen on the way could come back
  // with another event.
  verify: async (request, key) => {
    const body = isObject(request.body) ? request.body : {}
    const signature = isObject(body.signature) ? body.signature : {}
    const timestamp = text(signature.timestamp) ?? ''
    const token = text(signature.token) ?? ''
    const expected = createHmac('sha256', key).update(`${timestamp}${token}`).digest('hex')
    if (!fresh(timestamp, MAILGUN_MAX_AGE_S) || !sameText(text(signature.signature) ?? '', expected)) return unauthorized
    return { payload: body['event-data'], once: [`mailgun:${token}`] }
  },
  parse: (payload) => {
    const event = mailgunEvent(payload)
    return event ? [event] : ignored
  },
}

const sendgrid: ReportSource<KeyObject> = {
  name: 'sendgrid',
  bodyLimit: SENDGRID_MAX_BODY,
  raw: true,
  rememberMs: 2 * SENDGRID_MAX_AGE_S * 1000,
  settings: (options) => options.sendgridKey,
  // ECDSA over the timestamp and the body as sent; a timestamp past SendGrid's retry window is a replay.
  verify: async (request, key) => {
    const body = typeof request.body === 'string' ? request.body : ''
    const timestamp = headerOf(request, SENDGRID_TIMESTAMP_HEADER)
    if (!fresh(timestamp, SENDGRID_MAX_AGE_S)) return unauthorized
    if (!sendgridSigned(key, timestamp, body, headerOf(request, SENDGRID_SIGNATURE_HEADER))) return unauthorized
    return { payload: body }
  },
  parse: (payload) => {
    let events: unknown
    try {
      events = JSON.parse(String(payload))
    } catch {
      return { status: 400, body: { error: 'invalid_json', message: 'expected a JSON array of events' } }
    }
    if (!Array.isArray(events)) return { status: 400, body: { error: 'invalid_json', message: 'expected a JSON array of events' } }
    return events.map(sendgridEvent).filter((event) => event !== null)
  },
}

const ses: ReportSource<{ topicArn: string; sns: SnsVerifier }> = {
  name: 'ses',
  bodyLimit: SNS_MAX_BODY,
  raw: true,
  rememberMs: 72 * HOUR_MS,
  // Read once, when the routes are made: the verifier keeps its certificates for the life of the app.
  settings: (options) => (options.ses ? { topicArn: options.ses.topicArn, sns: snsVerifier(options.ses.certUrlPattern) } : undefined),
  // SNS's RSA signature against Amazon's certificate; the subscription confirmed here, once.
  verify: async (request, { topicArn, sns }) => {
    const message = snsMessage(typeof request.body === 'string' ? request.body : '')
    if (!message) return { status: 400, body: { error: 'invalid_message', message: 'expected a signed Amazon SNS message' } }
    // Another topic's messages are none of ours: answered (so SNS stops), neither fetched nor kept.
    if (message.TopicArn !== topicArn) return ignored
    // A certificate from anywhere else is never fetched.
    if (!sns.trusts(message.SigningCertURL)) return { status: 403, body: { error: 'untrusted_certificate' } }
    // A notification published past SNS's retries is a replay (its Timestamp is signed: a changed one fails below).
    if (message.Type === 'Notification' && !freshAt(Date.parse(message.Timestamp) / 1000, SES_MAX_AGE_S)) return unauthorized
    let signed: boolean
    try {
      signed = await sns.verify(message)
    } catch (error) {
      // The certificate could not be had: SNS tries again later.
      request.log.warn({ err: error, certUrl: message.SigningCertURL }, 'ses: the SNS signing certificate was not fetched')
      return { status: 503, body: { error: 'certificate_unavailable' } }
    }
    if (!signed) return unauthorized
    if (message.Type === 'SubscriptionConfirmation') {
      if (!subscribeUrlAllowed(message)) return { status: 403, body: { error: 'untrusted_subscribe_url' } }
      const answer = await fetch(message.SubscribeURL ?? '', { redirect: 'error', signal: AbortSignal.timeout(5_000) }).catch(
        (error: unknown) => error as Error,
      )
      if (answer instanceof Error || !answer.ok) {
        request.log.warn({ status: answer instanceof Error ? answer.message : answer.status }, 'ses: the subscription was not confirmed')
        return { status: 502, body: { error: 'subscription_not_confirmed' } }
      }
      request.log.info({ topic: message.TopicArn }, "ses: subscribed to the topic's notifications")
      return { status: 200, body: { subscribed: true } }
    }
    if (message.Type === 'UnsubscribeConfirmation') return ignored
    return { payload: message }
  },
  parse: (payload) => {
    const message = payload as NonNullable<ReturnType<typeof snsMessage>>
    return sesEvents(message.MessageId, message.Message)
  },
}

/** A provider's row as the routes use it: its settings read once, then bound to its checks. */
export interface ReportRoute extends Pick<ReportSource<unknown>, 'name' | 'bodyLimit' | 'raw' | 'rememberMs'> {
  /** Its checks with its settings, or undefined when it is not configured. */
  open(
    options: ProviderHookOptions,
  ): (Pick<ReportSource<unknown>, 'parse'> & { verify(request: ReportRequest): Promise<Proven | Answer> }) | undefined
}

const row = <S>(source: ReportSource<S>): ReportRoute => ({
  name: source.name,
  bodyLimit: source.bodyLimit,
  raw: source.raw,
  rememberMs: source.rememberMs,
  open: (options) => {
    const settings = source.settings(options)
    return settings === undefined ? undefined : { verify: (request) => source.verify(request, settings), parse: source.parse }
  },
})

/** Every provider whose reports are taken, one row each. */
export const REPORT_SOURCES: readonly ReportRoute[] = [row(postmark), row(mailgun), row(sendgrid), row(ses)]
