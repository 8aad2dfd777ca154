// Amazon SES's bounces and complaints through SNS (docs/decisions/019-suppression.md), on both
// stores, against the real entry point: the test is Amazon here, an https server (its certificate
// trusted through NODE_EXTRA_CA_CERTS, as an operator's would be) holding an SNS signing
// certificate made for the test and answering the subscription's confirmation. Messages are laid
// out as SNS's and SES's documented examples and signed with the certificate's key (versions 1 and 2).
import { createSign } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:https'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { Suppression } from '../../contract/mail-events'
import { DEFAULT_SNS_CERT_URL_PATTERN, snsStringToSign, snsVerifier, type SnsMessage } from '../../server/mail/sns'
import { selfSigned, signedBy } from '../support/certs'
import { pageTokenFor } from '../support/page-links'
import { spawnServer, type ServerProcess } from '../support/process'
import { freshDatabase } from '../support/server'
import { STORES } from '../support/stores'
import { runSql, sameSql } from '../support/team'

const ADMIN_TOKEN = 'admin-token-for-the-ses-tests-0123'
const TOPIC = 'arn:aws:sns:eu-west-1:123456789012:kennect-ses'

const dir = mkdtempSync(join(tmpdir(), 'kennect-sns-'))

/** Requests the fake Amazon answered, by path. */
const seen: string[] = []
let amazon: Server
let origin = ''
let signingKey = ''

beforeAll(async () => {
  // A certificate authority the server is told to trust, the https host's certificate, and the SNS signing certificate.
  const ca = selfSigned(dir, 'ca', 'Test CA')
  const tls = signedBy(ca, dir, 'tls', 'localhost')
  const sns = selfSigned(dir, 'sns', 'sns.amazonaws.com')
  signingKey = readFileSync(sns.key, 'utf8')
  const signingCert = readFileSync(sns.cert, 'utf8')
  amazon = createServer({ key: readFileSync(tls.key), cert: readFileSync(tls.cert) }, (request, response) => {
    seen.push(request.url ?? '')
    if (request.url === '/SimpleNotificationService-0123456789abcdef.pem') return response.end(signingCert)
    if (request.url?.startsWith('/?Action=ConfirmSubscription')) return response.end('<ConfirmSubscriptionResponse/>')
    response.statusCode = 404
    response.end()
  })
  amazon.listen(0, '127.0.0.1')
  await new Promise((resolve) => amazon.once('listening', resolve))
  origin = `https://localhost:${(amazon.address() as AddressInfo).port}`
})

afterAll(async () => {
  await new Promise((resolve) => amazon?.close(resolve))
  rmSync(dir, { recursive: true, force: true })
})

/** An SNS message as SNS lays it out, signed with the test's certificate (or another). */
function sns(fields: Partial<SnsMessage> & Pick<SnsMessage, 'Type' | 'Message'>, version: '1' | '2' = '2'): SnsMessage {
  const message: SnsMessage = {
    MessageId: crypto.randomUUID(),
    TopicArn: TOPIC,
    Timestamp: new Date().toISOString(),
    SignatureVersion: version,
    Signature: '',
    SigningCertURL: `${origin}/SimpleNotificationService-0123456789abcdef.pem`,
    ...fields,
  }
  message.Signature = createSign(version === '1' ? 'RSA-SHA1' : 'RSA-SHA256')
    .update(snsStringToSign(message))
    .sign(signingKey, 'base64')
  return message
}
/** SES's bounce notification (its documented example's shape) for a mail carrying our Message-ID. */
const bounce = (recipient: string, messageId: string, bounceType: 'Permanent' | 'Transient') =>
  JSON.stringify({
    notificationType: 'Bounce',
    bounce: {
      bounceType,
      bounceSubType: bounceType === 'Permanent' ? 'General' : 'MailboxFull',
      bouncedRecipients: [{ emailAddress: recipient, action: 'failed', status: '5.1.1', diagnosticCode: 'smtp; 550 5.1.1 user unknown' }],
      timestamp: '2026-11-26T04:00:00.000Z',
      feedbackId: '0100017c-bounce-0001',
      remoteMtaIp: '192.0.2.1',
    },
    mail: {
      timestamp: '2026-11-26T03:59:00.000Z',
      source: 'hello@kennect.test',
      sourceArn: 'arn:aws:ses:eu-west-1:123456789012:identity/kennect.test',
      messageId: '0100017c-ses-own-id-0001',
      destination: [recipient],
      headersTruncated: false,
      headers: [{ name: 'Message-ID', value: messageId }],
      // SES put its own Message-ID on the mail as it sent it; ours is among the original headers.
      commonHeaders: {
        from: ['hello@kennect.test'],
        to: [recipient],
        messageId: '<0100017c-ses-own-id-0001@eu-west-1.amazonses.com>',
        subject: 'Launch',
      },
    },
  })
const complaint = (recipient: string) =>
  JSON.stringify({
    notificationType: 'Complaint',
    complaint: {
      userAgent: 'ExampleCorp Feedback Loop (V0.01)',
      complainedRecipients: [{ emailAddress: recipient }],
      complaintFeedbackType: 'abuse',
      timestamp: '2026-11-26T04:00:00.000Z',
      feedbackId: '0100017c-complaint-0001',
    },
    mail: { messageId: '0100017c-ses-own-id-0002', destination: [recipient], commonHeaders: { to: [recipient] } },
  })

it('trusts by default only the certificates of Amazon’s SNS hosts, never an S3 bucket’s or a plain http one', () => {
  const trusted = snsVerifier(DEFAULT_SNS_CERT_URL_PATTERN)
  for (const url of [
    'https://sns.eu-west-1.amazonaws.com/SimpleNotificationService-6aad65c2f9911b05cd53efda11f913f9.pem',
    'https://sns.us-gov-west-1.amazonaws.com/SimpleNotificationService-0123456789abcdef.pem',
    'https://sns.cn-north-1.amazonaws.com.cn/SimpleNotificationService-0123456789abcdef.pem',
  ])
    expect(trusted.trusts(url), url).toBe(true)
  for (const url of [
    'https://sns.s3.amazonaws.com/SimpleNotificationService-0123456789abcdef.pem',
    'https://sns.s3-us-west-2.amazonaws.com/SimpleNotificationService-0123456789abcdef.pem',
    'https://sns.s3-accelerate.amazonaws.com/SimpleNotificationService-0123456789abcdef.pem',
    'https://sns.eu-west-1.amazonaws.com/anything.pem',
    'https://sns.eu-west-1.amazonaws.com.evil.example/SimpleNotificationService-0123456789abcdef.pem',
    'http://sns.eu-west-1.amazonaws.com/SimpleNotificationService-0123456789abcdef.pem',
  ])
    expect(trusted.trusts(url), url).toBe(false)
})

describe.each(STORES)('Amazon SES through SNS on $kind', ({ kind, available }) => {
  let server: ServerProcess | undefined
  let cleanup: (() => Promise<void>) | undefined
  afterEach(async () => {
    await server?.stop()
    await cleanup?.()
    server = undefined
    cleanup = undefined
  })

  it.skipIf(!available)(
    'confirms the subscription, takes signed bounces and complaints of its topic once, and fetches no certificate from elsewhere',
    async () => {
      seen.length = 0
      const db = await freshDatabase(kind)
      cleanup = db.cleanup
      const mailDir = mkdtempSync(join(tmpdir(), 'kennect-mail-'))
      const port = new URL(origin).port
      server = await spawnServer({
        ...db.env,
        MAIL_DIR: mailDir,
        ADMIN_TOKEN,
        MAIL_RATE_PER_SECOND: '0',
        MAIL_FROM: 'Kennect <hello@kennect.test>',
        SES_SNS_TOPIC_ARN: TOPIC,
        SNS_CERT_URL_PATTERN: String.raw`https://localhost:${port}/SimpleNotificationService-[0-9a-f]+\.pem`,
        NODE_EXTRA_CA_CERTS: join(dir, 'ca.pem'),
      })
      const base = server.url
      const sql = { config: { DATABASE_URL: db.env.DATABASE_URL, SQLITE_PATH: db.env.SQLITE_PATH ?? '' } }
      const hook = (message: unknown) =>
        fetch(`${base}/hooks/mail/ses`, {
          method: 'POST',
          // SNS posts its JSON as text.
          headers: { 'content-type': 'text/plain; charset=UTF-8', 'x-amz-sns-message-type': 'Notification' },
          body: JSON.stringify(message),
        })
      const events = async () => Number((await runSql(sql, sameSql('SELECT count(*) AS n FROM mail_events')))[0]?.n)
      const suppressions = async () =>
        (
          (await (await fetch(`${base}/admin/api/suppressions`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })).json()) as {
            items: Suppression[]
          }
        ).items
          .map((s) => `${s.email} ${s.reason}`)
          .sort()
      for (const email of ['alice@example.com', 'bob@example.com', 'carl@example.com']) {
        const answer = await fetch(`${base}/rest/v1/waitlist`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email }),
        })
        expect(answer.status).toBe(201)
        await pageTokenFor(mailDir, email)
      }
      const [key] = (
        await runSql(sql, sameSql('SELECT message_key FROM outbox JOIN waitlist ON waitlist.id = outbox.signup_id WHERE email = ?'), [
          'alice@example.com',
        ])
      ).map((row) => String(row.message_key))

      // The subscription: confirmed by visiting its address on the certificate's host, not on another.
      const token = '2336412f37fb687f5d51e6e2425ba1f30bb2e8a4a0a7'
      const subscribeUrl = `${origin}/?Action=ConfirmSubscription&TopicArn=${TOPIC}&Token=${token}`
      const elsewhere = sns({
        Type: 'SubscriptionConfirmation',
        Message: 'You have chosen to subscribe to the topic.',
        Token: token,
        SubscribeURL: subscribeUrl.replace('localhost', '127.0.0.1'),
      })
      expect((await hook(elsewhere)).status).toBe(403)
      expect(seen.filter((path) => path.startsWith('/?Action'))).toEqual([])
      const subscription = sns({
        Type: 'SubscriptionConfirmation',
        Message: 'You have chosen to subscribe.',
        Token: token,
        SubscribeURL: subscribeUrl,
      })
      expect(await (await hook(subscription)).json()).toEqual({ subscribed: true })
      expect(seen.filter((path) => path.startsWith('/?Action'))).toHaveLength(1)

      // A certificate address that is not Amazon's (here, not the pattern's) is never fetched.
      const before = seen.length
      const untrusted = sns({ Type: 'Notification', Message: bounce('bob@example.com', '<x@y>', 'Permanent') })
      untrusted.SigningCertURL = `${origin}/elsewhere/key.pem`
      expect((await hook(untrusted)).status).toBe(403)
      // Another topic's message: answered and ignored, nothing fetched.
      const otherTopic = sns({
        Type: 'Notification',
        Message: bounce('bob@example.com', '<x@y>', 'Permanent'),
        TopicArn: `${TOPIC}-other`,
        SigningCertURL: `${origin}/SimpleNotificationService-fedcba9876543210.pem`,
      })
      expect(await (await hook(otherTopic)).json()).toEqual({ recorded: 0 })
      expect(seen.length).toBe(before)
      // A message changed after it was signed: 401, nothing recorded.
      const forged = sns({ Type: 'Notification', Message: bounce('bob@example.com', '<x@y>', 'Permanent') })
      forged.Message = bounce('carl@example.com', '<x@y>', 'Permanent')
      expect((await hook(forged)).status).toBe(401)
      expect((await hook({ ...forged, Type: 'Nonsense' })).status).toBe(400)
      // Signed a day and a minute ago, as SendGrid's old events are refused: a replay, 401. So is
      // one signed an hour ahead of our clock, or at no moment one can read.
      for (const Timestamp of [
        new Date(Date.now() - 86_460_000).toISOString(),
        new Date(Date.now() + 3_600_000).toISOString(),
        'yesterday',
      ]) {
        const stale = sns({ Type: 'Notification', Message: bounce('bob@example.com', '<x@y>', 'Permanent'), Timestamp })
        expect((await hook(stale)).status, Timestamp).toBe(401)
      }
      expect(await events()).toBe(0)

      // A permanent bounce names a forwarder's address, but its Message-ID is Alice's mail: Alice is suppressed.
      const hard = sns({ Type: 'Notification', Message: bounce('alias@forwarder.example', `<${key}@kennect.test>`, 'Permanent') }, '1')
      expect(await (await hook(hard)).json()).toEqual({ recorded: 1 })
      // SNS delivering the same message again, or the same bounce in another message (published
      // by the identity and by a configuration set): counted once.
      expect(await (await hook(hard)).json()).toEqual({ recorded: 0 })
      expect(await (await hook(sns({ Type: 'Notification', Message: hard.Message }))).json()).toEqual({ recorded: 0 })
      // SES not sending to an address its account's suppression list holds is no new complaint.
      const onList = JSON.parse(complaint('bob@example.com')) as { complaint: Record<string, unknown> }
      onList.complaint.complaintSubType = 'OnAccountSuppressionList'
      expect(await (await hook(sns({ Type: 'Notification', Message: JSON.stringify(onList) }))).json()).toEqual({ recorded: 0 })
      const transient = sns({ Type: 'Notification', Message: bounce('bob@example.com', '<unknown@kennect.test>', 'Transient') })
      expect(await (await hook(transient)).json()).toEqual({ recorded: 1 })
      expect(await (await hook(sns({ Type: 'Notification', Message: complaint('carl@example.com') }))).json()).toEqual({ recorded: 1 })
      // A delivery notification is not ours to act on.
      expect(await (await hook(sns({ Type: 'Notification', Message: JSON.stringify({ notificationType: 'Delivery' }) }))).json()).toEqual({
        recorded: 0,
      })
      expect(await suppressions()).toEqual(['alice@example.com hard-bounce', 'carl@example.com complaint'])
      const kinds = await runSql(sql, sameSql('SELECT type, source FROM mail_events ORDER BY id'))
      expect(kinds.map((row) => `${row.type} ${row.source}`)).toEqual(['hard-bounce ses', 'soft-bounce ses', 'complaint ses'])
      // The certificate was fetched once, and kept.
      expect(seen.filter((path) => path.endsWith('.pem'))).toHaveLength(1)
      rmSync(mailDir, { recursive: true, force: true })
    },
  )

  it.skipIf(!available)('answers 404 while SES_SNS_TOPIC_ARN is unset', async () => {
    const db = await freshDatabase(kind)
    cleanup = db.cleanup
    server = await spawnServer({ ...db.env })
    const answer = await fetch(`${server.url}/hooks/mail/ses`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '{}' })
    expect(answer.status).toBe(404)
  })
})
