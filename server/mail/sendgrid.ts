// SendGrid's signed event webhook (docs/decisions/019-suppression.md): an ECDSA (P-256, SHA-256)
// signature over the timestamp header and the body as it was sent, under the public key SendGrid
// shows (base64 of its DER form). Bounces are hard, `blocked` bounces and deferrals soft, spam
// reports complaints; each event counted once by its sg_event_id.
import { createPublicKey, createVerify, type KeyObject } from 'node:crypto'
import type { MailEventType } from '../../contract/mail-events.js'
import { isObject, messageKeyOf, text } from './report-fields.js'

export const SENDGRID_SIGNATURE_HEADER = 'x-twilio-email-event-webhook-signature'
export const SENDGRID_TIMESTAMP_HEADER = 'x-twilio-email-event-webhook-timestamp'

/** The public key as SendGrid shows it (base64 DER, or a PEM), or null when it is not an EC key. */
export function sendgridKey(shown: string): KeyObject | null {
  try {
    const key = shown.includes('-----BEGIN')
      ? createPublicKey(shown)
      : createPublicKey({ key: Buffer.from(shown.replace(/\s+/g, ''), 'base64'), format: 'der', type: 'spki' })
    return key.asymmetricKeyType === 'ec' ? key : null
  } catch {
    return null
  }
}

export function sendgridSigned(key: KeyObject, timestamp: string, body: string, signature: string): boolean {
  if (!/^\d+$/.test(timestamp) || signature.length === 0) return false
  try {
    return createVerify('sha256')
      .update(timestamp + body)
      .verify({ key, dsaEncoding: 'der' }, signature, 'base64')
  } catch {
    return false
  }
}

/** One of SendGrid's events as ours, or null for a kind we do not act on. */
export function sendgridEvent(data: unknown): { type: MailEventType; email: string; messageKey: string | null; eventId: string } | null {
  if (!isObject(data)) return null
  const email = text(data.email)
  const id = text(data.sg_event_id)
  if (!email || !id) return null
  const messageKey = messageKeyOf(text(data['smtp-id']))
  const base = { email, messageKey, eventId: `sendgrid:${id}` }
  if (data.event === 'spamreport') return { ...base, type: 'complaint' }
  if (data.event === 'deferred') return { ...base, type: 'soft-bounce' }
  if (data.event === 'bounce') return { ...base, type: data.type === 'blocked' ? 'soft-bounce' : 'hard-bounce' }
  return null
}
