// Amazon SES's bounces and complaints, as Amazon SNS posts them (docs/decisions/019-suppression.md):
// the message's signature is checked against the certificate at its SigningCertURL, fetched only
// when that URL matches SNS_CERT_URL_PATTERN (by default Amazon's SNS hosts), over https with Node's
// usual trust. Only the topic named by SES_SNS_TOPIC_ARN is taken; a subscription to it is confirmed
// by visiting its SubscribeURL when that is https on the certificate's host.
import { X509Certificate, createVerify } from 'node:crypto'
import type { MailEventType } from '../../contract/mail-events.js'
import { isObject, messageKeyOf, text } from './report-fields.js'

/**
 * Amazon's SNS hosts and file names: `https://sns.<region>.amazonaws.com/SimpleNotificationService-<hex>.pem`
 * (and the China regions' `.com.cn`). The region has a region's shape (eu-west-1, us-gov-west-1):
 * `sns.s3.amazonaws.com` is a customer's S3 bucket named "sns", and its certificates are anyone's.
 */
export const DEFAULT_SNS_CERT_URL_PATTERN = String.raw`https://sns\.[a-z]{2}(?:-gov|-iso[a-z]?)?-[a-z]+-\d+\.amazonaws\.com(?:\.cn)?/SimpleNotificationService-[0-9a-f]+\.pem`

/** A signing certificate is a couple of kilobytes. */
const MAX_CERT_BYTES = 16 * 1024
const CERT_TIMEOUT_MS = 5_000
/** How long a certificate that could not be had is not asked for again. */
const FAILED_CERT_KEPT_MS = 60_000
/** Certificates kept (SNS uses one per region, changed every few months). */
const CERT_CACHE = 20

export type SnsType = 'Notification' | 'SubscriptionConfirmation' | 'UnsubscribeConfirmation'

/** An SNS message as posted, with the fields its signature covers. */
export interface SnsMessage {
  Type: SnsType
  MessageId: string
  TopicArn: string
  Message: string
  Timestamp: string
  Subject?: string
  SubscribeURL?: string
  Token?: string
  SignatureVersion: '1' | '2'
  Signature: string
  SigningCertURL: string
}

/** The posted body as an SNS message, or null when it is not one. */
export function snsMessage(raw: string): SnsMessage | null {
  let body: unknown
  try {
    body = JSON.parse(raw)
  } catch {
    return null
  }
  if (!isObject(body)) return null
  const type = body.Type
  if (type !== 'Notification' && type !== 'SubscriptionConfirmation' && type !== 'UnsubscribeConfirmation') return null
  if (body.SignatureVersion !== '1' && body.SignatureVersion !== '2') return null
  for (const field of ['MessageId', 'TopicArn', 'Message', 'Timestamp', 'Signature', 'SigningCertURL'] as const)
    if (typeof body[field] !== 'string') return null
  if (type !== 'Notification' && (!text(body.SubscribeURL) || !text(body.Token))) return null
  return body as unknown as SnsMessage
}

/** What SNS signs: the message's fields, in this order, each as `name\nvalue\n` (Subject only when present). */
export function snsStringToSign(message: SnsMessage): string {
  const fields =
    message.Type === 'Notification'
      ? (['Message', 'MessageId', 'Subject', 'Timestamp', 'TopicArn', 'Type'] as const)
      : (['Message', 'MessageId', 'SubscribeURL', 'Timestamp', 'Token', 'TopicArn', 'Type'] as const)
  return fields
    .filter((field) => message[field] !== undefined && message[field] !== null)
    .map((field) => `${field}\n${String(message[field])}\n`)
    .join('')
}

export interface SnsVerifier {
  /** Whether the certificate's address may be fetched at all. */
  trusts(certUrl: string): boolean
  /** Whether the message is signed by the certificate at its (trusted) address. */
  verify(message: SnsMessage): Promise<boolean>
}

export function snsVerifier(pattern: string): SnsVerifier {
  const trusted = new RegExp(`^(?:${pattern})$`)
  const certs = new Map<string, Promise<string>>()
  const fetchCert = async (url: string): Promise<string> => {
    // Whatever the pattern says: a certificate that came over plain http proves nothing.
    if (new URL(url).protocol !== 'https:') throw new Error('the certificate is not on an https address')
    const answer = await fetch(url, { redirect: 'error', signal: AbortSignal.timeout(CERT_TIMEOUT_MS) })
    if (!answer.ok) throw new Error(`the certificate's address answered ${answer.status}`)
    const body = await answer.text()
    if (body.length > MAX_CERT_BYTES) throw new Error('the certificate is too large')
    const cert = new X509Certificate(body)
    if (Date.parse(cert.validTo) < Date.now()) throw new Error('the certificate has expired')
    return body
  }
  const certOf = (url: string) => {
    let cert = certs.get(url)
    if (!cert) {
      // A failed fetch is kept a minute (so messages naming a missing file do not make us fetch
      // once each), then tried again, as SNS tries again.
      cert = fetchCert(url).catch((error: unknown) => {
        setTimeout(() => certs.delete(url), FAILED_CERT_KEPT_MS).unref()
        throw error
      })
      if (certs.size >= CERT_CACHE) certs.delete(certs.keys().next().value ?? '')
      certs.set(url, cert)
    }
    return cert
  }
  return {
    trusts: (url) => trusted.test(url),
    verify: async (message) => {
      if (!trusted.test(message.SigningCertURL)) return false
      const verifier = createVerify(message.SignatureVersion === '1' ? 'RSA-SHA1' : 'RSA-SHA256')
      verifier.update(snsStringToSign(message), 'utf8')
      return verifier.verify(await certOf(message.SigningCertURL), message.Signature, 'base64')
    },
  }
}

/** The SubscribeURL may be visited: https, on the host the certificate came from. */
export function subscribeUrlAllowed(message: SnsMessage): boolean {
  try {
    const subscribe = new URL(message.SubscribeURL ?? '')
    return subscribe.protocol === 'https:' && subscribe.hostname === new URL(message.SigningCertURL).hostname
  } catch {
    return false
  }
}

export interface SesEvent {
  type: MailEventType
  email: string
  messageKey: string | null
  eventId: string
}

/**
 * SES's notification (or event-publishing record) inside an SNS Notification, as our events: one
 * per recipient it names. Permanent bounces are hard, Transient and Undetermined soft; a complaint
 * whose feedback type is `not-spam` is none.
 */
export function sesEvents(snsMessageId: string, raw: string): SesEvent[] {
  let body: unknown
  try {
    body = JSON.parse(raw)
  } catch {
    return []
  }
  if (!isObject(body)) return []
  const kind = body.notificationType ?? body.eventType
  const mail = isObject(body.mail) ? body.mail : {}
  const common = isObject(mail.commonHeaders) ? mail.commonHeaders : {}
  const headers = Array.isArray(mail.headers) ? mail.headers : []
  const header = headers.find((h: unknown) => isObject(h) && typeof h.name === 'string' && h.name.toLowerCase() === 'message-id')
  // SES replaces a mail's Message-ID with its own as it sends: ours is among the original headers
  // (the identity's "Include original headers"), and commonHeaders may hold either.
  const messageKey = messageKeyOf((isObject(header) ? text(header.value) : null) ?? text(common.messageId))
  const recipients = (list: unknown) =>
    (Array.isArray(list) ? list : []).map((r: unknown) => (isObject(r) ? text(r.emailAddress) : null)).filter((e) => e !== null)
  // SES's feedback id names the event itself: the same bounce published by the identity and by a
  // configuration set (two SNS messages) counts once. Without one, the SNS message does.
  const each = (emails: string[], type: MailEventType, feedbackId: string | null) =>
    emails.map((email) => ({ type, email, messageKey, eventId: `ses:${feedbackId ?? snsMessageId}:${email.toLowerCase()}` }))
  if (kind === 'Bounce' && isObject(body.bounce))
    return each(
      recipients(body.bounce.bouncedRecipients),
      body.bounce.bounceType === 'Permanent' ? 'hard-bounce' : 'soft-bounce',
      text(body.bounce.feedbackId),
    )
  // Not a complaint: one its recipient marked as not spam, or SES not sending to an address its
  // account's suppression list holds (an earlier complaint, maybe another app's).
  if (
    kind === 'Complaint' &&
    isObject(body.complaint) &&
    body.complaint.complaintFeedbackType !== 'not-spam' &&
    body.complaint.complaintSubType !== 'OnAccountSuppressionList'
  )
    return each(recipients(body.complaint.complainedRecipients), 'complaint', text(body.complaint.feedbackId))
  return []
}
