// Bounces and complaints that mail providers report later, by webhook (docs/decisions/019-suppression.md):
// Postmark (basic auth) and Mailgun (an HMAC of the timestamp and token under the signing key). A
// provider not configured answers 404; a bad credential 401 and records nothing; an event delivered
// twice counts once (the provider's own event id); an event of another kind is answered 2xx and ignored.
import { createHmac, timingSafeEqual } from 'node:crypto'
import type { FastifyInstance, FastifyReply } from 'fastify'
import type { MailEventType } from '../../contract/mail-events.js'

/** A provider's payload is a few kilobytes; anything bigger is not one. */
const MAX_BODY = 64 * 1024
/** Mailgun's signature older than this is refused (a replayed request). */
const MAILGUN_MAX_AGE_S = 15 * 60

const sameText = (a: string, b: string) => {
  const left = Buffer.from(a)
  const right = Buffer.from(b)
  return left.length === right.length && timingSafeEqual(left, right)
}
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)
const text = (value: unknown): string | null => (typeof value === 'string' && value.length > 0 ? value : null)

/** Postmark's record as the event it is, or null for a kind we do not act on. */
export function postmarkEvent(body: unknown): { type: MailEventType; email: string; eventId: string } | null {
  if (!isObject(body)) return null
  const email = text(body.Email)
  const id = body.ID
  if (!email || (typeof id !== 'number' && typeof id !== 'string')) return null
  const eventId = `postmark:${body.RecordType}:${id}`
  if (body.RecordType === 'SpamComplaint') return { type: 'complaint', email, eventId }
  if (body.RecordType !== 'Bounce') return null
  if (body.Type === 'HardBounce' || body.Type === 'BadEmailAddress') return { type: 'hard-bounce', email, eventId }
  if (body.Type === 'SoftBounce' || body.Type === 'Transient' || body.Type === 'DnsError') return { type: 'soft-bounce', email, eventId }
  if (body.Type === 'SpamComplaint') return { type: 'complaint', email, eventId }
  return null
}

/** Mailgun's event as ours, or null for a kind we do not act on. */
export function mailgunEvent(data: unknown): { type: MailEventType; email: string; messageKey: string | null; eventId: string } | null {
  if (!isObject(data)) return null
  const email = text(data.recipient)
  const id = text(data.id)
  if (!email || !id) return null
  const headers = isObject(data.message) && isObject(data.message.headers) ? data.message.headers : {}
  const messageKey = /^<?([^@<>\s]+)@/.exec(text(headers['message-id']) ?? '')?.[1] ?? null
  const base = { email, messageKey, eventId: `mailgun:${id}` }
  if (data.event === 'complained') return { ...base, type: 'complaint' }
  if (data.event !== 'failed') return null
  return { ...base, type: data.severity === 'temporary' ? 'soft-bounce' : 'hard-bounce' }
}

export async function providerHooks(app: FastifyInstance, options: { postmarkAuth: string | undefined; mailgunKey: string | undefined }) {
  const record = async (
    reply: FastifyReply,
    event: { type: MailEventType; email: string; messageKey?: string | null; eventId: string },
    source: string,
  ) => {
    const outcome = await app.suppressions.report({ ...event, source })
    app.log.info({ source, type: event.type, recorded: outcome.recorded, suppressed: outcome.suppressed }, 'mail event from a provider')
    return reply.code(200).send({ recorded: outcome.recorded })
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
}
