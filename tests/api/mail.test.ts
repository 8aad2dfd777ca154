// The mail side of the waitlist against a real SMTP server, on both stores: a join yields one
// confirmation mail, however often the address is entered; its link opens the visitor's page;
// one click in a mailbox unsubscribes; a recipient refused for good is tried once and bounced.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { mailCopy } from '../../server/mail/content'
import { startServer, type TestServer } from '../support/server'
import { outboxSettled } from '../support/outbox'
import { type ReceivedMail, startSmtp, type TestSmtp } from '../support/smtp'
import { STORES } from '../support/stores'

const copy = mailCopy('Kennect')

const join = (url: string, email: string) =>
  fetch(`${url}/rest/v1/waitlist`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ email }) })

/** A header as it was sent (mailparser turns some into structures). */
const header = (mail: ReceivedMail | undefined, name: string) =>
  mail?.parsed.headerLines
    .find((line) => line.key === name)
    ?.line.replace(/^[^:]+:\s*/, '')
    .replace(/\r?\n\s+/g, ' ') ?? ''

/** The link to the visitor's page in a mail's text part. */
const pageLink = (text: string) => /(https?:\/\/\S+\/me\/[A-Za-z0-9_-]{43})(?=\s)/.exec(text)?.[1] ?? ''

describe.each(STORES)('mail on $kind', ({ kind, available }) => {
  let smtp: TestSmtp
  let server: TestServer
  beforeAll(async () => {
    if (!available) return
    smtp = await startSmtp()
    server = await startServer({ SMTP_URL: smtp.url, MAIL_RATE_PER_SECOND: '0' }, kind)
  })
  afterAll(async () => {
    await server?.close()
    await smtp?.stop()
  })
  afterEach(() => {
    if (!available) return
    smtp.received.length = 0
    smtp.attempts.length = 0
  })

  const settled = () => outboxSettled(server.app.store)

  it.skipIf(!available)('sends a new address one confirmation mail: HTML and text, a preheader, one-click unsubscribe', async () => {
    expect((await join(server.url, 'new.person@example.com')).status).toBe(201)
    const [mail] = await smtp.waitFor(1)
    expect(mail?.to).toBe('new.person@example.com')
    expect(mail?.subject).toBe(copy.confirmation.subject)
    expect(mail?.messageId).toMatch(/^<[0-9a-f-]{36}@kennect\.app>$/)
    const { parsed } = mail ?? { parsed: undefined }
    expect(parsed?.from?.value[0]).toMatchObject({ name: 'Kennect', address: 'hello@kennect.app' })
    expect(parsed?.text).toContain(copy.confirmation.paragraphs[0])
    expect(String(parsed?.html)).toContain(copy.confirmation.preheader)
    expect(String(parsed?.html)).toContain('prefers-color-scheme: dark')
    const link = pageLink(parsed?.text ?? '')
    // Listening on a loopback address, the server names itself localhost (passkeys need a name).
    expect(link.startsWith(`${server.url.replace('127.0.0.1', 'localhost')}/me/`)).toBe(true)
    expect(header(mail, 'list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click')
    expect(header(mail, 'list-unsubscribe')).toBe(`<${link}/unsubscribe>`)
    // The link opens the visitor's page, which changes nothing by being opened.
    const page = await fetch(link)
    expect(page.status).toBe(200)
    expect(page.headers.get('referrer-policy')).toBe('no-referrer')
    expect(page.headers.get('x-robots-tag')).toContain('noindex')
    expect(await page.text()).toContain('new.person@example.com')
    expect(await settled()).toMatchObject({ sent: 1, failed: 0, bounced: 0 })
    const [row] = await server.app.store.list({ limit: 1, search: 'new.person' })
    expect(row).toMatchObject({ confirmed_at: null, mail_state: 'sent' })
  })

  it.skipIf(!available)('sends one mail for ten joins of one address in a minute, and none to a confirmed address', async () => {
    for (let i = 0; i < 10; i++) expect((await join(server.url, i % 2 ? 'Often@Example.com' : 'often@example.com')).status).toBe(201)
    await smtp.waitFor(1)
    await settled()
    expect(smtp.received.map((m) => m.to)).toEqual(['often@example.com'])
    // Confirmed on the page: joining again sends nothing (even once the day has passed).
    const link = pageLink(smtp.received[0]?.parsed.text ?? '')
    expect((await fetch(`${link}/confirm`, { method: 'POST', redirect: 'manual' })).status).toBe(303)
    expect((await join(server.url, 'often@example.com')).status).toBe(201)
    await settled()
    expect(smtp.received).toHaveLength(1)
  })

  it.skipIf(!available)('unsubscribes at once on the one-click POST a mailbox sends', async () => {
    await join(server.url, 'one.click@example.com')
    const [mail] = await smtp.waitFor(1)
    const target = /<([^>]+)>/.exec(header(mail, 'list-unsubscribe'))?.[1] ?? ''
    const answer = await fetch(target, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
      redirect: 'manual',
    })
    expect(answer.status).toBe(200)
    const [row] = await server.app.store.list({ limit: 1, search: 'one.click' })
    expect(row?.unsubscribed_at).toMatch(/^\d{4}-/)
  })

  it.skipIf(!available)('retries a deferred mail, and sends nothing more once the address stops e-mails', async () => {
    smtp.defer.add('deferred@example.com')
    await join(server.url, 'deferred@example.com')
    for (let i = 0; i < 100 && !smtp.attempts.includes('deferred@example.com'); i++) await new Promise((r) => setTimeout(r, 20))
    // Queued again for a retry in 2 s: the visitor stops e-mails meanwhile. (Read once the attempt
    // has ended: read before, on a loaded machine the row still said 'sending'.)
    for (let i = 0; i < 100 && (await server.app.store.outbox.counts()).sending > 0; i++) await new Promise((r) => setTimeout(r, 20))
    const [row] = await server.app.store.list({ limit: 1, search: 'deferred@' })
    expect(row?.mail_state).toBe('queued')
    await server.app.store.visitors.setSubscribed(row?.id ?? 0, false)
    await new Promise((resolve) => setTimeout(resolve, 3_000))
    expect(smtp.attempts.filter((a) => a === 'deferred@example.com')).toHaveLength(1)
    const data = await server.app.store.visitors.data(row?.id ?? 0)
    expect(data.mails).toMatchObject([{ kind: 'confirm', state: 'failed', attempts: 1 }])
  })

  it.skipIf(!available)('bounces a recipient the server refuses for good after one try, and sends the others', async () => {
    smtp.refuse.add('refused@example.com')
    for (const email of ['before@example.com', 'refused@example.com', 'after@example.com']) await join(server.url, email)
    await smtp.waitFor(2)
    const counts = await settled()
    expect(smtp.received.map((m) => m.to).sort()).toEqual(['after@example.com', 'before@example.com'])
    expect(smtp.attempts.filter((a) => a === 'refused@example.com')).toHaveLength(1)
    expect(counts.bounced).toBe(1)
    const [row] = await server.app.store.list({ limit: 1, search: 'refused@' })
    expect(row?.mail_state).toBe('bounced')
  })
})
