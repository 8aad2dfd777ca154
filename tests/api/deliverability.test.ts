// The deliverability figures (docs/decisions/020-deliverability.md), over HTTP on both stores: a
// campaign sent to a real SMTP server that refuses two recipients for good, then a complaint, soft
// bounces and a late hard bounce reported by Message-ID, a complaint reported by address alone, and
// an unsubscribe; GET /admin/api/deliverability says what became of the mails per campaign, per
// recipient domain, and against the 0.3 % line. Every role that reads the figures reads it.
import { afterEach, describe, expect, it } from 'vitest'
import { COMPLAINT_RATE_DAYS, COMPLAINT_RATE_LIMIT, type Deliverability } from '../../contract/deliverability'
import { outboxSettled } from '../support/outbox'
import { row } from '../support/rows'
import { startServer, type TestServer } from '../support/server'
import { startSmtp, type TestSmtp } from '../support/smtp'
import { STORES } from '../support/stores'
import { asOperator, joinTeam, runSql, sameSql } from '../support/team'

const ADMIN_TOKEN = 'admin-token-for-the-deliverability-tests'
/** Six at example.com, four at example.org (one typed in capitals: the domain is lower-cased). */
const PEOPLE = [
  'ann@example.com',
  'bob@example.com',
  'cem@example.com',
  'dee@example.com',
  'eli@example.com',
  'fay@example.com',
  'gus@example.org',
  'hal@example.org',
  'ivy@example.org',
  'Jon@EXAMPLE.ORG',
]

describe.each(STORES)('deliverability on $kind', ({ kind, available }) => {
  let server: TestServer
  let smtp: TestSmtp
  afterEach(async () => {
    await server?.close()
    await smtp?.stop()
  })
  const admin = (path: string, init: { method?: string; body?: unknown } = {}) =>
    fetch(`${server.url}/admin/api${path}`, {
      method: init.method ?? 'GET',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, ...(init.body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    })
  const figures = async () => {
    const answer = await admin('/deliverability')
    expect(answer.status).toBe(200)
    return (await answer.json()) as Deliverability
  }
  /** The Message-ID of the mail with this subject that reached this address. */
  const messageIdOf = (to: string, subject: string) => {
    const mail = smtp.received.find((m) => m.to.toLowerCase() === to.toLowerCase() && m.subject === subject)
    if (!mail) throw new Error(`no mail “${subject}” to ${to}`)
    return mail.messageId
  }
  const report = async (body: Record<string, string>) => {
    const answer = await admin('/mail/events', { method: 'POST', body })
    expect(answer.status, JSON.stringify(body)).toBe(201)
  }

  it.skipIf(!available)(
    'counts a campaign’s mails sent, delivered, bounced hard and soft, complained and unsubscribed, per campaign and per domain, and the complaint rate against 0.3 %',
    async () => {
      smtp = await startSmtp()
      server = await startServer({ ADMIN_TOKEN, SMTP_URL: smtp.url, MAIL_RATE_PER_SECOND: '0' }, kind)
      const { store } = server.app
      const empty = await figures()
      expect(empty).toMatchObject({
        complaintRate: { days: COMPLAINT_RATE_DAYS, complaints: 0, sent: 0, rate: null, limit: COMPLAINT_RATE_LIMIT, above: false },
        campaigns: [],
        domains: [],
        unattributed: { hardBounced: 0, softBounced: 0, complained: 0 },
      })

      // Everyone joins (a confirmation each, accepted by the server) and confirms.
      for (const email of PEOPLE) await store.add(row(email))
      await outboxSettled(store)
      expect(smtp.received).toHaveLength(10)
      for (const signup of await store.list({ limit: 100 })) await store.visitors.confirm(signup.id)

      // By launch day two mailboxes are dead: the server refuses them for good.
      smtp.refuse.add('eli@example.com')
      smtp.refuse.add('ivy@example.org')
      const sent = await admin('/campaigns', { method: 'POST', body: { subject: 'Launch', markdown: 'Hello.', segment: {}, send: true } })
      expect(sent.status).toBe(201)
      const { id } = (await sent.json()) as { id: number }
      await outboxSettled(store)
      expect(smtp.received.filter((mail) => mail.subject === 'Launch')).toHaveLength(8)

      // Later: Ann complains; Bob's mailbox is full twice (one mail, counted once); Gus's provider
      // takes back its acceptance (a hard bounce); Cem complains to a provider that names only his
      // address; Dee stops e-mails on her page.
      await report({ messageId: messageIdOf('ann@example.com', 'Launch'), type: 'complaint', source: 'fbl' })
      await report({ messageId: messageIdOf('bob@example.com', 'Launch'), type: 'soft-bounce', source: 'mta', eventId: 'full-1' })
      await report({ messageId: messageIdOf('bob@example.com', 'Launch'), type: 'soft-bounce', source: 'mta', eventId: 'full-2' })
      await report({ messageId: messageIdOf('gus@example.org', 'Launch'), type: 'hard-bounce', source: 'mta' })
      await report({ email: 'cem@example.com', type: 'complaint', source: 'fbl' })
      const [dee] = await store.list({ limit: 1, search: 'dee@' })
      await store.visitors.setSubscribed(dee?.id ?? 0, false)

      const answer = await figures()
      // 10 to the mail server: 2 refused at once, Gus's taken back later; Ann, Cem (whose complaint
      // unsubscribed him) and Dee stopped e-mails after it.
      expect(answer.campaigns).toEqual([
        {
          id,
          subject: 'Launch',
          status: 'finished',
          pausedReason: null,
          sent: 10,
          delivered: 7,
          hardBounced: 3,
          softBounced: 1,
          complained: 1,
          unsubscribed: 3,
        },
      ])
      // Confirmations and the campaign, per domain, the most mailed first.
      expect(answer.domains).toEqual([
        {
          domain: 'example.com',
          domains: 1,
          sent: 12,
          delivered: 11,
          hardBounced: 1,
          softBounced: 1,
          complained: 1,
          unsubscribed: 3,
        },
        { domain: 'example.org', domains: 1, sent: 8, delivered: 6, hardBounced: 2, softBounced: 0, complained: 0, unsubscribed: 0 },
      ])
      // Two complaints against the 18 mails the server accepted: far above the line.
      expect(answer.complaintRate).toEqual({
        days: COMPLAINT_RATE_DAYS,
        complaints: 2,
        sent: 18,
        rate: 2 / 18,
        limit: COMPLAINT_RATE_LIMIT,
        above: true,
      })
      expect(answer.unattributed).toEqual({ hardBounced: 0, softBounced: 0, complained: 1 })
      expect(Date.parse(answer.countedAt)).toBeGreaterThan(Date.now() - 60_000)

      // Cem deletes his sign-up (his events go with it): his complaint still weighs on the rate.
      expect(await store.remove('cem@example.com')).toBe(true)
      expect((await figures()).complaintRate).toMatchObject({ complaints: 2, sent: 18, rate: 2 / 18 })
      // Mail accepted and complaints made on a day before the window leave the rate.
      const old = new Date(Date.now() - (COMPLAINT_RATE_DAYS + 1) * 86_400_000).toISOString().slice(0, 10)
      await runSql(server, sameSql(`INSERT INTO tallies (kind, key, field, n) VALUES ('mail-day', ?, 'sent', 100)`), [old])
      await runSql(server, sameSql(`INSERT INTO tallies (kind, key, field, n) VALUES ('mail-day', ?, 'complaints', 50)`), [old])
      expect((await figures()).complaintRate).toMatchObject({ complaints: 2, sent: 18, rate: 2 / 18, above: true })

      // A second campaign, then Bob stops e-mails: his unsubscribe is the newer campaign's alone (and
      // Launch keeps its three: Cem's, who left since, stays counted as his complaint does).
      const news = await admin('/campaigns', { method: 'POST', body: { subject: 'News', markdown: 'More.', segment: {}, send: true } })
      expect(news.status).toBe(201)
      await outboxSettled(store)
      // The clock moves on between the campaign's mail and his click.
      await new Promise((resolve) => setTimeout(resolve, 5))
      const [bob] = await store.list({ limit: 1, search: 'bob@' })
      await store.visitors.setSubscribed(bob?.id ?? 0, false)
      expect((await figures()).campaigns.map((c) => [c.subject, c.unsubscribed])).toEqual([
        ['News', 1],
        ['Launch', 3],
      ])
    },
  )

  it.skipIf(!available)('pools every domain past the 50 most mailed into one row, and keeps counting mails as they go', async () => {
    server = await startServer({ ADMIN_TOKEN, MAIL_RATE_PER_SECOND: '0' }, kind)
    const { store } = server.app
    // 52 domains: d0 has three sign-ups, d1 two, the rest one each (files transport: all sent).
    const emails = Array.from({ length: 52 }, (_, i) => `p${i}@d${i}.example`)
    emails.push('q0@d0.example', 'r0@d0.example', 'q1@d1.example')
    for (const email of emails) await store.add(row(email))
    await outboxSettled(store)
    const { domains, complaintRate } = await figures()
    expect(domains).toHaveLength(51)
    expect(domains.slice(0, 3).map((d) => [d.domain, d.sent])).toEqual([
      ['d0.example', 3],
      ['d1.example', 2],
      ['d10.example', 1],
    ])
    // The listed ones are the first 50 in the order (most mailed, then by name); two are left.
    expect(domains[50]).toEqual({
      domain: null,
      domains: 2,
      sent: 2,
      delivered: 2,
      hardBounced: 0,
      softBounced: 0,
      complained: 0,
      unsubscribed: 0,
    })
    expect(complaintRate).toMatchObject({ sent: 55, complaints: 0, rate: 0, above: false })
    // The kept counts agree with the outbox itself.
    const [counted] = await runSql(server, sameSql(`SELECT count(*) AS n FROM outbox WHERE state = 'sent'`))
    expect(Number(counted?.n)).toBe(55)
  })

  it.skipIf(!available)('answers every role that reads the figures: a viewer reads them, but not the suppression list', async () => {
    server = await startServer({ ADMIN_TOKEN, MAIL_RATE_PER_SECOND: '0' }, kind)
    expect((await fetch(`${server.url}/admin/api/deliverability`)).status).toBe(401)
    for (const email of ['jane@doe-family.example', 'max@doe-family.example', 'kim@example.com']) await server.app.store.add(row(email))
    await outboxSettled(server.app.store)
    const viewer = asOperator(server, await joinTeam(server, 'vera@kennect.example', 'viewer'))
    const answer = await viewer('/deliverability')
    expect(answer.status).toBe(200)
    const seen = (await answer.json()) as Deliverability
    expect(seen.complaintRate.limit).toBe(0.003)
    // The domains are not named to a role that may not read addresses: one row for all of them.
    expect(seen.domains).toEqual([
      { domain: null, domains: 2, sent: 3, delivered: 3, hardBounced: 0, softBounced: 0, complained: 0, unsubscribed: 0 },
    ])
    expect((await figures()).domains.map((d) => [d.domain, d.sent])).toEqual([
      ['doe-family.example', 2],
      ['example.com', 1],
    ])
    expect((await viewer('/suppressions')).status).toBe(403)
  })
})
