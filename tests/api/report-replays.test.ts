// What an attacker replays, and what a provider sends in bulk (issue 39, items 2, 3, 7; issue 49,
// item 3): a Mailgun signature taken by one instance is refused by a second one and after a restart
// (its token is kept in the store, not in one process's memory), and so is the signature of an event
// that was answered and ignored (a delivery); a SendGrid event replayed after its sign-up and
// events were deleted still counts once; a SendGrid batch of 1 MB (4,400 events) is recorded in one
// transaction and answered.
import { createHmac, createSign, generateKeyPairSync, randomBytes } from 'node:crypto'
import { afterEach, describe, expect, it } from 'vitest'
import { createTestSchema, postgresAvailable, type TestDatabase } from '../support/postgres'
import { pageTokenFor } from '../support/page-links'
import { row } from '../support/rows'
import { startServer, tempSqlitePath, type TestServer } from '../support/server'
import { STORES } from '../support/stores'
import { runSql, sameSql } from '../support/team'

const MAILGUN_KEY = 'mailgun-signing-key-for-replays-0123'
const sendgrid = generateKeyPairSync('ec', { namedCurve: 'P-256' })
const SENDGRID_KEY = sendgrid.publicKey.export({ format: 'der', type: 'spki' }).toString('base64')

/** A Mailgun webhook request: a fresh token, signed, and an event. */
function mailgunBody(event: Record<string, unknown>) {
  const timestamp = Math.floor(Date.now() / 1000)
  const token = randomBytes(25).toString('hex')
  const signature = createHmac('sha256', MAILGUN_KEY).update(`${timestamp}${token}`).digest('hex')
  return { signature: { timestamp: String(timestamp), token, signature }, 'event-data': event }
}
const failed = (recipient: string, id: string) => ({ event: 'failed', id, severity: 'permanent', recipient, message: { headers: {} } })
const complained = (recipient: string, id: string) => ({ event: 'complained', id, recipient, message: { headers: {} } })
const delivered = (recipient: string, id: string) => ({ event: 'delivered', id, recipient, message: { headers: {} } })

function sendgridRequest(events: unknown[]) {
  const body = JSON.stringify(events)
  const timestamp = String(Math.floor(Date.now() / 1000))
  const signature = createSign('sha256')
    .update(timestamp + body)
    .sign(sendgrid.privateKey, 'base64')
  return {
    method: 'POST',
    body,
    headers: {
      'content-type': 'application/json',
      'x-twilio-email-event-webhook-signature': signature,
      'x-twilio-email-event-webhook-timestamp': timestamp,
    },
  }
}
const deferred = (email: string, id: string) => ({
  email,
  timestamp: 1513299569,
  'smtp-id': '<none@x>',
  event: 'deferred',
  category: 'launch',
  sg_event_id: id,
  sg_message_id: '14c5d75ce93.dfd.64b469.filter0001.16648.5515E0B88.0',
  response: '421 4.7.0 Try again later, closing connection. (EHLO) n12si1234567pgd.123 - gsmtp',
  attempt: '3',
})

const post = (server: TestServer, path: string, body: unknown) =>
  fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
const eventCount = async (server: TestServer) => Number((await runSql(server, sameSql('SELECT count(*) AS n FROM mail_events')))[0]?.n)
const suppressedCount = async (server: TestServer) =>
  Number((await runSql(server, sameSql('SELECT count(*) AS n FROM suppressions')))[0]?.n)

describe.skipIf(!postgresAvailable)('a Mailgun signature on two instances of one PostgreSQL database', () => {
  let db: TestDatabase
  const servers: TestServer[] = []
  afterEach(async () => {
    for (const server of servers.splice(0)) await server.close()
    await db?.cleanup()
  })

  it('is taken once by the deployment: the second instance refuses it, whatever event it now carries', async () => {
    db = await createTestSchema()
    const env = { DATABASE_URL: db.url, MAILGUN_WEBHOOK_SIGNING_KEY: MAILGUN_KEY, MAIL_RATE_PER_SECOND: '0' }
    const [a, b] = [await startServer(env, 'postgres'), await startServer(env, 'postgres')] as [TestServer, TestServer]
    servers.push(a, b)
    await a.app.store.add(row('victim@example.com'))
    const signed = mailgunBody(failed('nobody@example.com', 'mg-1'))
    expect((await post(a, '/hooks/mail/mailgun', signed)).status).toBe(200)
    // Seen on the way, sent to the other instance with a complaint about someone else.
    const forged = { ...signed, 'event-data': complained('victim@example.com', 'mg-forged') }
    expect((await post(b, '/hooks/mail/mailgun', forged)).status).toBe(401)
    expect((await post(a, '/hooks/mail/mailgun', forged)).status).toBe(401)
    const [victim] = await a.app.store.list({ limit: 1, search: 'victim@' })
    expect(victim?.unsubscribed_at).toBeNull()
    expect(await eventCount(a)).toBe(1)
  })

  it('is taken even when its event was ignored: a delivery’s signature cannot come back on the other instance as a bounce', async () => {
    db = await createTestSchema()
    const env = { DATABASE_URL: db.url, MAILGUN_WEBHOOK_SIGNING_KEY: MAILGUN_KEY, MAIL_RATE_PER_SECOND: '0' }
    const [a, b] = [await startServer(env, 'postgres'), await startServer(env, 'postgres')] as [TestServer, TestServer]
    servers.push(a, b)
    await a.app.store.add(row('victim@example.com'))
    const signed = mailgunBody(delivered('reader@example.com', 'mg-delivered'))
    expect(await (await post(a, '/hooks/mail/mailgun', signed)).json()).toEqual({ recorded: 0 })
    const forged = { ...signed, 'event-data': failed('victim@example.com', 'mg-forged') }
    expect((await post(b, '/hooks/mail/mailgun', forged)).status).toBe(401)
    expect((await post(a, '/hooks/mail/mailgun', forged)).status).toBe(401)
    expect(await eventCount(a)).toBe(0)
    expect(await suppressedCount(a)).toBe(0)
  })
})

describe.each(STORES)('an ignored Mailgun event’s signature on $kind', ({ kind, available }) => {
  let server: TestServer | undefined
  afterEach(() => server?.close())

  it.skipIf(!available)('is spent: the same signature with a forged permanent failure is refused and suppresses no one', async () => {
    server = await startServer({ MAILGUN_WEBHOOK_SIGNING_KEY: MAILGUN_KEY, MAIL_RATE_PER_SECOND: '0' }, kind)
    await server.app.store.add(row('victim@example.com'))
    for (const event of ['delivered', 'opened']) {
      const signed = mailgunBody({ ...delivered('reader@example.com', `mg-${event}`), event })
      expect(await (await post(server, '/hooks/mail/mailgun', signed)).json()).toEqual({ recorded: 0 })
      const forged = { ...signed, 'event-data': failed('victim@example.com', `mg-forged-${event}`) }
      expect((await post(server, '/hooks/mail/mailgun', forged)).status).toBe(401)
    }
    expect(await eventCount(server)).toBe(0)
    expect(await suppressedCount(server)).toBe(0)
  })
})

describe('a Mailgun signature on SQLite', () => {
  let server: TestServer | undefined
  const db = tempSqlitePath()
  afterEach(async () => {
    await server?.close()
    db.cleanup()
  })

  it('is refused after a restart too', async () => {
    const env = { SQLITE_PATH: db.path, MAILGUN_WEBHOOK_SIGNING_KEY: MAILGUN_KEY, MAIL_RATE_PER_SECOND: '0' }
    server = await startServer(env)
    const signed = mailgunBody(failed('nobody@example.com', 'mg-1'))
    expect((await post(server, '/hooks/mail/mailgun', signed)).status).toBe(200)
    await server.close()
    server = await startServer(env)
    expect((await post(server, '/hooks/mail/mailgun', { ...signed, 'event-data': complained('anyone@example.com', 'mg-2') })).status).toBe(
      401,
    )
    expect(await eventCount(server)).toBe(1)
  })
})

describe.each(STORES)('SendGrid’s reports on $kind', ({ kind, available }) => {
  let server: TestServer
  afterEach(() => server?.close())

  it.skipIf(!available)('counts an event once even after its sign-up and events are gone', async () => {
    server = await startServer({ SENDGRID_WEBHOOK_PUBLIC_KEY: SENDGRID_KEY, MAIL_RATE_PER_SECOND: '0' }, kind)
    await server.app.store.add(row('gone@example.com'))
    await pageTokenFor(server.config.MAIL_DIR, 'gone@example.com')
    const hook = (events: unknown[]) => fetch(`${server.url}/hooks/mail/sendgrid`, sendgridRequest(events))
    expect((await hook([deferred('gone@example.com', 'sg-gone-1')])).status).toBe(200)
    expect(await server.app.store.remove('gone@example.com')).toBe(true)
    expect(await eventCount(server)).toBe(0)
    // SendGrid retrying (re-signed, as it does) within its window: nothing new.
    expect((await hook([deferred('gone@example.com', 'sg-gone-1')])).status).toBe(200)
    expect(await eventCount(server)).toBe(0)
  })

  it.skipIf(!available)('records a batch of 4,400 events (1 MB) in one transaction and answers it', async () => {
    server = await startServer({ SENDGRID_WEBHOOK_PUBLIC_KEY: SENDGRID_KEY, MAIL_RATE_PER_SECOND: '0' }, kind)
    // As SendGrid's documentation lays a deferral out, its reply left short: 4,400 of them are about 1 MB.
    const events = Array.from({ length: 4_400 }, (_, i) => ({
      email: `reader${i}@example.com`,
      timestamp: 1513299569,
      'smtp-id': '<none@x>',
      event: 'deferred',
      sg_event_id: `sg-${i}-${randomBytes(4).toString('hex')}`,
      sg_message_id: '14c5d75ce93.dfd.64b469.filter0001.16648.5515E0B88.0',
      response: '421 try later',
    }))
    const request = sendgridRequest(events)
    expect(request.body.length).toBeGreaterThan(1_000_000 - 100_000)
    expect(request.body.length).toBeLessThan(1024 * 1024)
    // PostgreSQL counts the transactions committed: one per event was 4,400 (and 31 s on a busy machine).
    const commits = async () => {
      if (kind !== 'postgres') return 0
      // A connection reports its counts once idle for a second.
      await new Promise((resolve) => setTimeout(resolve, 1_500))
      const sql = 'SELECT xact_commit AS n FROM pg_stat_database WHERE datname = current_database()'
      const [found] = await runSql(server, { sqlite: sql, postgres: sql })
      return Number(found?.n)
    }
    const before = await commits()
    const started = performance.now()
    const answer = await fetch(`${server.url}/hooks/mail/sendgrid`, { ...request, signal: AbortSignal.timeout(15_000) })
    const seconds = (performance.now() - started) / 1000
    console.log(
      `sendgrid batch ${kind}: ${events.length} events, ${(request.body.length / 1024).toFixed(0)} KB, answered in ${seconds.toFixed(2)} s`,
    )
    expect(await answer.json()).toEqual({ recorded: 4_400 })
    expect(await eventCount(server)).toBe(4_400)
    if (kind === 'postgres') expect((await commits()) - before).toBeLessThan(400)
  })
})
