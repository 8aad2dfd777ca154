// Bounces and complaints that mail providers report later, by webhook (docs/decisions/019-suppression.md):
// Postmark (basic auth), Mailgun (an HMAC of the timestamp and token under the signing key), SendGrid
// (ECDSA over the body as sent) and Amazon SES through SNS (RSA, the certificate fetched from Amazon).
// A provider not configured answers 404; a bad credential 401 and records nothing; an event delivered
// twice counts once (the provider's own event id); an event of another kind is answered 2xx and ignored.
import { createHmac, timingSafeEqual, type KeyObject } from 'node:crypto'
import type { FastifyInstance, FastifyReply } from 'fastify'
import type { MailEventType } from '../../contract/mail-events.js'
import type { ClaimedMail } from '../store/types.js'
import type { OutgoingMail } from './transport.js'
import { SENDGRID_SIGNATURE_HEADER, SENDGRID_TIMESTAMP_HEADER, sendgridEvent, sendgridSigned } from './sendgrid.js'
import { isObject, messageKeyOf, text } from './report-fields.js'
import { sesEvents, snsMessage, snsVerifier, subscribeUrlAllowed } from './sns.js'

/** A provider's payload is a few kilobytes; anything bigger is not one. */
const MAX_BODY = 64 * 1024
/** SendGrid posts its events in batches (every 30 s, or sooner at 768 KB): a wave's deferrals fill one. */
const SENDGRID_MAX_BODY = 1024 * 1024
/** SNS messages are at most 256 KB. */
const SNS_MAX_BODY = 256 * 1024
/** Mailgun's signature older than this is refused (a replayed request). */
const MAILGUN_MAX_AGE_S = 15 * 60

const sameText = (a: string, b: string) => {
  const left = Buffer.from(a)
  const right = Buffer.from(b)
  return left.length === right.length && timingSafeEqual(left, right)
}

/**
 * Postmark's MessageID is its own, but it hands back the metadata a mail carried in
 * `X-PM-Metadata-*` headers (and takes them off before delivery): each mail names itself there.
 */
export const POSTMARK_METADATA_KEY = 'kennect-message'

export function withPostmarkMetadata(
  enabled: boolean,
  compose: (mail: ClaimedMail) => Promise<OutgoingMail>,
): (mail: ClaimedMail) => Promise<OutgoingMail> {
  if (!enabled) return compose
  return async (mail) => {
    const outgoing = await compose(mail)
    return { ...outgoing, headers: { ...outgoing.headers, [`X-PM-Metadata-${POSTMARK_METADATA_KEY}`]: mail.messageKey } }
  }
}

/** Postmark's record as the event it is, or null for a kind we do not act on. */
export function postmarkEvent(body: unknown): { type: MailEventType; email: string; messageKey: string | null; eventId: string } | null {
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
export function mailgunEvent(data: unknown): { type: MailEventType; email: string; messageKey: string | null; eventId: string } | null {
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

type ProviderEvent = { type: MailEventType; email: string; messageKey?: string | null; eventId: string }

export interface ProviderHookOptions {
  postmarkAuth: string | undefined
  mailgunKey: string | undefined
  /** SendGrid's verification key, read at start. */
  sendgridKey: KeyObject | undefined
  /** The one SNS topic whose SES notifications are taken, and the addresses its certificates may come from. */
  ses: { topicArn: string; certUrlPattern: string } | undefined
}

export async function providerHooks(app: FastifyInstance, options: ProviderHookOptions) {
  const recordOne = async (event: ProviderEvent, source: string) => {
    const outcome = await app.suppressions.report({ ...event, source })
    app.log.info({ source, type: event.type, recorded: outcome.recorded, suppressed: outcome.suppressed }, 'mail event from a provider')
    return outcome.recorded
  }
  const record = async (reply: FastifyReply, event: ProviderEvent, source: string) =>
    reply.code(200).send({ recorded: await recordOne(event, source) })
  /** Several events in one request: each recorded in turn, the answer says how many were new. */
  const recordAll = async (reply: FastifyReply, events: ProviderEvent[], source: string) => {
    let recorded = 0
    for (const event of events) if (await recordOne(event, source)) recorded += 1
    return reply.code(200).send({ recorded })
  }

  app.post('/hooks/mail/postmark', { bodyLimit: MAX_BODY }, async (request, reply) => {
    if (!options.postmarkAuth) return reply.code(404).send({ error: 'not_found' })
    const given = /^Basic\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1]
    const credentials = given ? Buffer.from(given, 'base64').toString('utf8') : ''
    if (!sameText(credentials, options.postmarkAuth))
      return reply.code(401).header('www-authenticate', 'Basic realm="mail events"').send({ error: 'unauthorized' })
    const event = postmarkEvent(request.body)
    if (!event) return reply.code(200).send({ recorded: false })
    return record(reply, event, 'postmark')
  })

  /** Mailgun tokens taken in the last half hour (this instance's: its signatures expire in 15 minutes). */
  const tokens = new Map<string, number>()
  app.post('/hooks/mail/mailgun', { bodyLimit: MAX_BODY }, async (request, reply) => {
    if (!options.mailgunKey) return reply.code(404).send({ error: 'not_found' })
    const body = isObject(request.body) ? request.body : {}
    const signature = isObject(body.signature) ? body.signature : {}
    const timestamp = text(signature.timestamp) ?? ''
    const token = text(signature.token) ?? ''
    const expected = createHmac('sha256', options.mailgunKey).update(`${timestamp}${token}`).digest('hex')
    const fresh = /^\d+$/.test(timestamp) && Math.abs(Date.now() / 1000 - Number(timestamp)) <= MAILGUN_MAX_AGE_S
    if (!fresh || !sameText(text(signature.signature) ?? '', expected)) return reply.code(401).send({ error: 'unauthorized' })
    // The signature covers the timestamp and token, not the event: a token is taken once, so a
    // signed request seen on the way cannot be sent again with another event.
    const now = Date.now()
    for (const [seen, at] of tokens) if (now - at > MAILGUN_MAX_AGE_S * 2000) tokens.delete(seen)
    if (tokens.has(token)) return reply.code(401).send({ error: 'unauthorized' })
    tokens.set(token, now)
    const event = mailgunEvent(body['event-data'])
    if (!event) return reply.code(200).send({ recorded: false })
    return record(reply, event, 'mailgun')
  })

  // SendGrid and SNS sign the body as it was sent: these two take it as text and parse it themselves
  // (SNS posts JSON as text/plain).
  await app.register(async (raw) => {
    raw.removeContentTypeParser(['application/json', 'text/plain'])
    // The routes' own limits apply (each route's bodyLimit is the parser's).
    raw.addContentTypeParser(['application/json', 'text/plain'], { parseAs: 'string' }, (_request, body, done) => done(null, body))

    raw.post('/hooks/mail/sendgrid', { bodyLimit: SENDGRID_MAX_BODY }, async (request, reply) => {
      if (!options.sendgridKey) return reply.code(404).send({ error: 'not_found' })
      const body = typeof request.body === 'string' ? request.body : ''
      const signature = String(request.headers[SENDGRID_SIGNATURE_HEADER] ?? '')
      const timestamp = String(request.headers[SENDGRID_TIMESTAMP_HEADER] ?? '')
      if (!sendgridSigned(options.sendgridKey, timestamp, body, signature)) return reply.code(401).send({ error: 'unauthorized' })
      let events: unknown
      try {
        events = JSON.parse(body)
      } catch {
        return reply.code(400).send({ error: 'invalid_json', message: 'expected a JSON array of events' })
      }
      if (!Array.isArray(events)) return reply.code(400).send({ error: 'invalid_json', message: 'expected a JSON array of events' })
      return recordAll(
        reply,
        events.map(sendgridEvent).filter((event) => event !== null),
        'sendgrid',
      )
    })

    const sns = options.ses ? snsVerifier(options.ses.certUrlPattern) : undefined
    raw.post('/hooks/mail/ses', { bodyLimit: SNS_MAX_BODY }, async (request, reply) => {
      if (!options.ses || !sns) return reply.code(404).send({ error: 'not_found' })
      const message = snsMessage(typeof request.body === 'string' ? request.body : '')
      if (!message) return reply.code(400).send({ error: 'invalid_message', message: 'expected a signed Amazon SNS message' })
      // Another topic's messages are none of ours: answered (so SNS stops), neither fetched nor kept.
      if (message.TopicArn !== options.ses.topicArn) return reply.code(200).send({ recorded: 0 })
      // A certificate from anywhere else is never fetched.
      if (!sns.trusts(message.SigningCertURL)) return reply.code(403).send({ error: 'untrusted_certificate' })
      let signed: boolean
      try {
        signed = await sns.verify(message)
      } catch (error) {
        // The certificate could not be had: SNS tries again later.
        request.log.warn({ err: error, certUrl: message.SigningCertURL }, 'ses: the SNS signing certificate was not fetched')
        return reply.code(503).send({ error: 'certificate_unavailable' })
      }
      if (!signed) return reply.code(401).send({ error: 'unauthorized' })
      if (message.Type === 'SubscriptionConfirmation') {
        if (!subscribeUrlAllowed(message)) return reply.code(403).send({ error: 'untrusted_subscribe_url' })
        const answer = await fetch(message.SubscribeURL ?? '', { redirect: 'error', signal: AbortSignal.timeout(5_000) }).catch(
          (error: unknown) => error as Error,
        )
        if (answer instanceof Error || !answer.ok) {
          request.log.warn({ status: answer instanceof Error ? answer.message : answer.status }, 'ses: the subscription was not confirmed')
          return reply.code(502).send({ error: 'subscription_not_confirmed' })
        }
        request.log.info({ topic: message.TopicArn }, "ses: subscribed to the topic's notifications")
        return reply.code(200).send({ subscribed: true })
      }
      if (message.Type === 'UnsubscribeConfirmation') return reply.code(200).send({ recorded: 0 })
      return recordAll(reply, sesEvents(message.MessageId, message.Message), 'ses')
    })
  })
}
