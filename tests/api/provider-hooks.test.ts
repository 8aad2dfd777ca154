// The providers' bounce and complaint webhooks (docs/decisions/019-suppression.md), over HTTP on both
// stores, with payloads in the shape of Postmark's and Mailgun's documented examples: a hard bounce
// and a spam complaint suppress, a soft bounce is remembered, a replay counts once, a bad credential
// or signature gets 401 and records nothing, another kind of event is answered and ignored, and a
// provider not configured answers 404.
import { createHmac, createSign, generateKeyPairSync, randomBytes } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { Suppression } from '../../contract/mail-events'
import { pageTokenFor } from '../support/page-links'
import { startServer, type TestServer } from '../support/server'
import { STORES } from '../support/stores'
import { runSql, sameSql } from '../support/team'

const ADMIN_TOKEN = 'admin-token-for-the-provider-tests-012'
const POSTMARK = 'kennect:postmark-password-0123'
const MAILGUN_KEY = 'mailgun-signing-key-0123456789'

/** Postmark's bounce webhook, as its documentation's example is laid out. */
const postmarkBounce = (email: string, id: number, type: string) => ({
  RecordType: 'Bounce',
  MessageStream: 'outbound',
  ID: id,
  Type: type,
  TypeCode: type === 'HardBounce' ? 1 : 4096,
  Name: type,
  Tag: 'Test',
  MessageID: '883953f4-6105-42a2-a16a-77a8eac79483',
  Metadata: {},
  ServerID: 23,
  Description: 'The server was unable to deliver your message (ex: unknown user, mailbox not found).',
  Details: 'Test bounce details',
  Email: email,
  From: 'hello@kennect.test',
  BouncedAt: '2026-11-26T01:33:54.9070259Z',
  DumpAvailable: true,
  Inactive: true,
  CanActivate: true,
  Subject: 'Confirm your address',
})

/** Mailgun's webhook: its signature object and the event, as its documentation's example is laid out. */
function mailgunBody(event: Record<string, unknown>, key = MAILGUN_KEY, timestamp = Math.floor(Date.now() / 1000)) {
  const token = randomBytes(25).toString('hex') // Mailgun's are 50 characters, new for each request
  const signature = createHmac('sha256', key).update(`${timestamp}${token}`).digest('hex')
  return { signature: { timestamp: String(timestamp), token, signature }, 'event-data': event }
}
const mailgunFailed = (recipient: string, messageId: string, id: string, severity: 'permanent' | 'temporary') => ({
  event: 'failed',
  id,
  timestamp: 1521472262.908181,
  'log-level': 'error',
  severity,
  reason: severity === 'permanent' ? 'bounce' : 'generic',
  recipient,
  message: { headers: { to: `<${recipient}>`, 'message-id': messageId, from: 'hello@kennect.test', subject: 'Launch' } },
  'delivery-status': { code: severity === 'permanent' ? 550 : 452, message: 'mailbox unavailable' },
})

/** SendGrid's key pair: the public half as SendGrid shows it (base64 of its DER form). */
const sendgrid = generateKeyPairSync('ec', { namedCurve: 'P-256' })
const SENDGRID_KEY = sendgrid.publicKey.export({ format: 'der', type: 'spki' }).toString('base64')
/** SendGrid's signed request: ECDSA over the timestamp and the body as sent. */
function sendgridRequest(events: unknown[], privateKey = sendgrid.privateKey, timestamp = String(Math.floor(Date.now() / 1000))) {
  const body = JSON.stringify(events)
  const signature = createSign('sha256')
    .update(timestamp + body)
    .sign(privateKey, 'base64')
  return {
    body,
    headers: {
      'content-type': 'application/json',
      'x-twilio-email-event-webhook-signature': signature,
      'x-twilio-email-event-webhook-timestamp': timestamp,
    },
  }
}
/** One event as SendGrid's documentation's example lays it out. */
const sendgridEvent = (email: string, event: string, id: string, smtpId: string, extra: Record<string, unknown> = {}) => ({
  email,
  timestamp: 1513299569,
  'smtp-id': smtpId,
  event,
  category: 'launch',
  sg_event_id: id,
  sg_message_id: '14c5d75ce93.dfd.64b469.filter0001.16648.5515E0B88.0',
  ...extra,
})

describe.each(STORES)('provider webhooks on $kind', ({ kind, available }) => {
  let server: TestServer
  afterEach(() => server?.close())
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    })
  const basic = (credentials: string) => ({ authorization: `Basic ${Buffer.from(credentials).toString('base64')}` })
  const suppressions = async () =>
    (
      (await (await fetch(`${server.url}/admin/api/suppressions`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })).json()) as {
        items: Suppression[]
      }
    ).items
      .map((s) => `${s.email} ${s.reason}`)
      .sort()
  const eventCount = async () => Number((await runSql(server, sameSql('SELECT count(*) AS n FROM mail_events')))[0]?.n)
  async function joined(email: string) {
    const answer = await post('/rest/v1/waitlist', { email })
    expect(answer.status).toBe(201)
    await pageTokenFor(server.config.MAIL_DIR, email)
  }

  it.skipIf(!available)('takes Postmark’s bounces and spam complaints with its basic auth, each once', async () => {
    server = await startServer({ ADMIN_TOKEN, MAIL_RATE_PER_SECOND: '0', POSTMARK_WEBHOOK_AUTH: POSTMARK }, kind)
    await joined('john@example.com')
    await joined('kim@example.com')
    const hook = (body: unknown, credentials = POSTMARK) => post('/hooks/mail/postmark', body, basic(credentials))
    expect((await hook(postmarkBounce('john@example.com', 1, 'HardBounce'), 'kennect:wrong-password-000')).status).toBe(401)
    expect((await post('/hooks/mail/postmark', postmarkBounce('john@example.com', 1, 'HardBounce'))).status).toBe(401)
    expect(await eventCount()).toBe(0)
    expect(await (await hook(postmarkBounce('john@example.com', 4323372036854, 'HardBounce'))).json()).toEqual({ recorded: 1 })
    expect(await (await hook(postmarkBounce('john@example.com', 4323372036854, 'HardBounce'))).json()).toEqual({ recorded: 0 })
    expect(await (await hook(postmarkBounce('kim@example.com', 7, 'SoftBounce'))).json()).toEqual({ recorded: 1 })
    // An open or a delivery is not ours to act on: answered, ignored.
    expect(await (await hook({ RecordType: 'Open', ID: 9, Email: 'kim@example.com' })).json()).toEqual({ recorded: 0 })
    expect(await suppressions()).toEqual(['john@example.com hard-bounce'])
    const complaint = { ...postmarkBounce('kim@example.com', 42, 'SpamComplaint'), RecordType: 'SpamComplaint', TypeCode: 512 }
    expect((await hook(complaint)).status).toBe(200)
    expect(await suppressions()).toEqual(['john@example.com hard-bounce', 'kim@example.com complaint'])
    expect(await eventCount()).toBe(3)
    // Mailgun is not configured here.
    expect((await post('/hooks/mail/mailgun', mailgunBody(mailgunFailed('kim@example.com', 'x@y', 'e1', 'permanent')))).status).toBe(404)
  })

  it.skipIf(!available)('names each mail in Postmark’s metadata, so a bounce is tied to the mail and its original recipient', async () => {
    server = await startServer({ ADMIN_TOKEN, MAIL_RATE_PER_SECOND: '0', POSTMARK_WEBHOOK_AUTH: POSTMARK }, kind)
    await joined('lena@example.com')
    const [mail] = await runSql(
      server,
      sameSql('SELECT outbox.id, message_key FROM outbox JOIN waitlist ON waitlist.id = outbox.signup_id WHERE email = ?'),
      ['lena@example.com'],
    )
    const key = String(mail?.message_key)
    // The header Postmark reads (and takes off), in the mail as it left.
    const eml = readdirSync(server.config.MAIL_DIR).map((name) => readFileSync(join(server.config.MAIL_DIR, name), 'utf8'))
    expect(eml.join('\n')).toMatch(new RegExp(`^X-PM-Metadata-kennect-message: ${key}\r?$`, 'im'))
    // The bounce names a forwarder; its metadata (the key as the header spelled it) names Lena's mail.
    const bounce = { ...postmarkBounce('alias@forwarder.example', 99, 'HardBounce'), Metadata: { 'Kennect-Message': key } }
    expect(await (await post('/hooks/mail/postmark', bounce, basic(POSTMARK))).json()).toEqual({ recorded: 1 })
    expect(await suppressions()).toEqual(['lena@example.com hard-bounce'])
    const [event] = await runSql(server, sameSql('SELECT outbox_id FROM mail_events'))
    expect(Number(event?.outbox_id)).toBe(Number(mail?.id))
  })

  it.skipIf(!available)(
    'takes Mailgun’s signed failures and complaints by the Message-ID, refuses a bad or old signature, each once',
    async () => {
      server = await startServer(
        { ADMIN_TOKEN, MAIL_RATE_PER_SECOND: '0', MAILGUN_WEBHOOK_SIGNING_KEY: MAILGUN_KEY, MAIL_FROM: 'Kennect <hello@kennect.test>' },
        kind,
      )
      await joined('alice@example.com')
      await joined('carl@example.com')
      const [key] = (
        await runSql(server, sameSql('SELECT message_key FROM outbox JOIN waitlist ON waitlist.id = outbox.signup_id WHERE email = ?'), [
          'alice@example.com',
        ])
      ).map((row) => String(row.message_key))
      const hook = (body: unknown) => post('/hooks/mail/mailgun', body)
      // The Message-ID names Alice, whatever recipient the event says (a forward).
      const failed = mailgunFailed('alias@forwarder.example', `${key}@kennect.test`, 'G9Bn5sl1TC6pa2ikwgmMSA', 'permanent')
      expect((await hook(mailgunBody(failed, 'another-key-0123456789abc'))).status).toBe(401)
      expect((await hook(mailgunBody(failed, MAILGUN_KEY, Math.floor(Date.now() / 1000) - 3600))).status).toBe(401)
      expect(await eventCount()).toBe(0)
      const signed = mailgunBody(failed)
      expect(await (await hook(signed)).json()).toEqual({ recorded: 1 })
      // The same signed request again, with another event in it: refused (its token was taken).
      expect((await hook({ ...signed, 'event-data': { ...failed, recipient: 'carl@example.com', event: 'complained' } })).status).toBe(401)
      // Mailgun delivering the event again signs it anew: counted once.
      expect(await (await hook(mailgunBody(failed))).json()).toEqual({ recorded: 0 })
      expect(await (await hook(mailgunBody(mailgunFailed('carl@example.com', 'none@x', 'temp-1', 'temporary')))).json()).toEqual({
        recorded: 1,
      })
      expect(await suppressions()).toEqual(['alice@example.com hard-bounce'])
      const complained = { event: 'complained', id: 'c-1', recipient: 'carl@example.com', message: { headers: { 'message-id': 'none@x' } } }
      expect((await hook(mailgunBody(complained))).status).toBe(200)
      expect(await (await hook(mailgunBody({ event: 'delivered', id: 'd-1', recipient: 'carl@example.com' }))).json()).toEqual({
        recorded: 0,
      })
      expect(await suppressions()).toEqual(['alice@example.com hard-bounce', 'carl@example.com complaint'])
      expect((await post('/hooks/mail/postmark', postmarkBounce('carl@example.com', 1, 'HardBounce'))).status).toBe(404)
    },
  )

  it.skipIf(!available)('takes SendGrid’s signed events by the Message-ID, refuses a bad signature, each once', async () => {
    server = await startServer(
      { ADMIN_TOKEN, MAIL_RATE_PER_SECOND: '0', SENDGRID_WEBHOOK_PUBLIC_KEY: SENDGRID_KEY, MAIL_FROM: 'Kennect <hello@kennect.test>' },
      kind,
    )
    for (const email of ['dora@example.com', 'eve@example.com', 'finn@example.com']) await joined(email)
    const [key] = (
      await runSql(server, sameSql('SELECT message_key FROM outbox JOIN waitlist ON waitlist.id = outbox.signup_id WHERE email = ?'), [
        'dora@example.com',
      ])
    ).map((row) => String(row.message_key))
    const hook = (request: { body: string; headers: Record<string, string> }) =>
      fetch(`${server.url}/hooks/mail/sendgrid`, { method: 'POST', headers: request.headers, body: request.body })
    const events = [
      // A bounce names a forwarder, its Message-ID is Dora's mail.
      sendgridEvent('alias@forwarder.example', 'bounce', 'sg-bounce-1', `<${key}@kennect.test>`, {
        type: 'bounce',
        reason: '500 unknown recipient',
        status: '5.0.0',
      }),
      sendgridEvent('eve@example.com', 'deferred', 'sg-deferred-1', '<none@x>', { attempt: '5', response: '400 try again later' }),
      sendgridEvent('eve@example.com', 'bounce', 'sg-blocked-1', '<none@x>', { type: 'blocked', status: '4.0.0' }),
      sendgridEvent('finn@example.com', 'spamreport', 'sg-spam-1', '<none@x>'),
      // Deliveries and opens are not ours to act on.
      sendgridEvent('finn@example.com', 'delivered', 'sg-delivered-1', '<none@x>', { response: '250 OK' }),
    ]
    const signed = sendgridRequest(events)
    // Signed by another key, or the body changed after signing: 401, nothing recorded.
    expect((await hook(sendgridRequest(events, generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey))).status).toBe(401)
    expect((await hook({ ...signed, body: signed.body.replace('eve@', 'bob@') })).status).toBe(401)
    expect((await hook({ ...signed, headers: { ...signed.headers, 'x-twilio-email-event-webhook-signature': '' } })).status).toBe(401)
    // Signed in 2001, or a day and a minute ago: older than SendGrid's retry window, a replay.
    expect((await hook(sendgridRequest(events, sendgrid.privateKey, '1000000000'))).status).toBe(401)
    expect((await hook(sendgridRequest(events, sendgrid.privateKey, String(Math.floor(Date.now() / 1000) - 86_460)))).status).toBe(401)
    expect(await eventCount()).toBe(0)
    expect(await (await hook(signed)).json()).toEqual({ recorded: 4 })
    // SendGrid retrying the batch: each event counted once.
    expect(await (await hook(sendgridRequest(events))).json()).toEqual({ recorded: 0 })
    expect(await suppressions()).toEqual(['dora@example.com hard-bounce', 'finn@example.com complaint'])
    const kinds = await runSql(server, sameSql('SELECT type FROM mail_events ORDER BY id'))
    expect(kinds.map((row) => row.type)).toEqual(['hard-bounce', 'soft-bounce', 'soft-bounce', 'complaint'])
    // A batch as big as a wave's deferrals make (over 64 KB) is taken whole.
    const batch = Array.from({ length: 400 }, (_, i) =>
      sendgridEvent(`reader${i}@example.com`, 'delivered', `sg-d-${i}`, '<none@x>', { response: '250 2.0.0 OK queued as 0123456789' }),
    )
    const big = sendgridRequest(batch)
    expect(big.body.length).toBeGreaterThan(64 * 1024)
    expect(await (await hook(big)).json()).toEqual({ recorded: 0 })
    // Mailgun and SES are not configured here.
    expect((await post('/hooks/mail/mailgun', {})).status).toBe(404)
    expect((await post('/hooks/mail/ses', {})).status).toBe(404)
  })
})
