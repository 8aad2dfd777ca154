// The sign-up's language on both stores (docs/decisions/016-languages.md): sent on both ways in,
// stored (an unknown one as English, never refused), sent back to its page by /join, counted on
// the demand map, chosen by a segment, and each campaign mail in its reader's language, else English.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { Segments } from '../../contract/campaigns'
import { formTokens } from '../../server/waitlist/form-token'
import { startServer, type TestServer } from '../support/server'
import { outboxSettled } from '../support/outbox'
import { startSmtp, type TestSmtp } from '../support/smtp'
import { STORES } from '../support/stores'

const TOKEN = 'locale-admin-token-0123456789'
const FORM_SECRET = 'test-form-secret-of-at-least-32-characters'

describe.each(STORES)("the sign-up's language on $kind", ({ kind, available }) => {
  let smtp: TestSmtp
  let server: TestServer
  beforeAll(async () => {
    if (!available) return
    smtp = await startSmtp()
    server = await startServer({ ADMIN_TOKEN: TOKEN, SMTP_URL: smtp.url, MAIL_RATE_PER_SECOND: '0', FORM_SECRET }, kind)
  })
  afterAll(async () => {
    await server?.close()
    await smtp?.stop()
  })
  afterEach(async () => {
    if (available) await settled()
  })

  const settled = () => outboxSettled(server.app.store)

  const insert = (body: Record<string, unknown>) =>
    fetch(`${server.url}/rest/v1/waitlist`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
  const join = (fields: Record<string, string>) =>
    fetch(`${server.url}/join`, {
      method: 'POST',
      body: new URLSearchParams({ token: formTokens(FORM_SECRET, 0).issue(Date.now() - 10_000), ...fields }),
      redirect: 'manual',
    })
  const localeOf = async (email: string) => (await server.app.store.list({ limit: 1, search: email }))[0]?.locale
  const admin = (path: string, body?: unknown) =>
    fetch(`${server.url}/admin/api${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { Authorization: `Bearer ${TOKEN}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    })

  it.skipIf(!available)('keeps the language sent with the insert; an unknown or malformed one is English, never a refusal', async () => {
    const cases: [string, unknown, string][] = [
      ['de.rest@example.com', 'de', 'de'],
      ['pl.rest@example.com', 'PL', 'pl'],
      ['xx.rest@example.com', 'xx', 'en'],
      ['sneaky.rest@example.com', "de'; drop table waitlist; --", 'en'],
      ['number.rest@example.com', 42, 'en'],
      ['none.rest@example.com', undefined, 'en'],
    ]
    for (const [email, locale, stored] of cases) {
      const answer = await insert(locale === undefined ? { email } : { email, locale })
      expect(answer.status, String(locale)).toBe(201)
      expect(await localeOf(email), String(locale)).toBe(stored)
    }
    // The confirmation mail speaks the stored language.
    const mails = await smtp.waitForRecipients(cases.length)
    expect(mails.find((m) => m.to === 'de.rest@example.com')?.parsed.html).toContain('<html lang="de">')
    expect(mails.find((m) => m.to === 'xx.rest@example.com')?.parsed.html).toContain('<html lang="en">')
  })

  it.skipIf(!available)("sends a no-script sign-up back to its language's page, and keeps the language", async () => {
    const cases: [string, string, string][] = [
      ['fr.join@example.com', 'fr', '/fr/#waitlist-joined'],
      ['en.join@example.com', 'en', '/#waitlist-joined'],
      ['xx.join@example.com', 'xx', '/#waitlist-joined'],
    ]
    for (const [email, locale, location] of cases) {
      const answer = await join({ email, locale })
      expect([answer.status, answer.headers.get('location')], locale).toEqual([303, location])
      expect(await localeOf(email), locale).toBe(locale === 'xx' ? 'en' : locale)
    }
    // A refusal goes back to the language's page too.
    const refused = await join({ email: 'not an address', locale: 'it' })
    expect(refused.headers.get('location')).toBe('/it/#waitlist-invalid')
  })

  it.skipIf(!available)('counts sign-ups per language, and a segment of languages gets only those', async () => {
    for (const [email, locale] of [
      ['es.one@example.com', 'es'],
      ['es.two@example.com', 'es'],
      ['it.one@example.com', 'it'],
    ] as const)
      expect((await insert({ email, locale })).status).toBe(201)
    const segments = (await (await admin('/segments')).json()) as Segments
    const count = (locale: string) => segments.byLocale.find((row) => row.locale === locale)
    expect(count('es')).toEqual({ locale: 'es', total: 2, confirmed: 0 })
    expect(count('it')).toEqual({ locale: 'it', total: 1, confirmed: 0 })
    const totals = segments.byLocale.map((row) => row.total)
    expect(totals).toEqual([...totals].sort((a, b) => b - a))
    const draft = (segment: object) => admin('/campaigns', { subject: 'S', markdown: 'M', segment, send: false })
    const recipients = async (segment: object) => ((await (await draft(segment)).json()) as { recipients: number }).recipients
    expect(await recipients({ locales: ['es'], includeUnconfirmed: true })).toBe(2)
    expect(await recipients({ locales: ['es', 'it'], includeUnconfirmed: true })).toBe(3)
    expect(await recipients({ locales: ['es'] })).toBe(0) // confirmed only, by default
    expect((await draft({ locales: ['xx'] })).status).toBe(400)
  })

  it.skipIf(!available)('mails a campaign written in English and German to each reader in theirs, English to the rest', async () => {
    const people = [
      ['anna.campaign@example.com', 'de'],
      ['bob.campaign@example.com', 'en'],
      ['piotr.campaign@example.com', 'pl'],
    ] as const
    for (const [email, locale] of people) expect((await insert({ email, locale, utm_source: 'campaign-test' })).status).toBe(201)
    await settled()
    smtp.received.length = 0
    const body = {
      subject: { en: 'The app is here', de: 'Die App ist da' },
      markdown: { en: 'Hello from Kennect.', de: 'Hallo von Kennect.' },
      segment: { sources: ['campaign-test'], includeUnconfirmed: true },
    }
    const draft = (await (await admin('/campaigns', { ...body, send: false })).json()) as {
      id: number
      recipients: number
      previews: Record<string, { subject: string; html: string }>
    }
    expect(draft.recipients).toBe(3)
    expect(Object.keys(draft.previews)).toEqual(['en', 'de'])
    expect(draft.previews.de?.subject).toBe('Die App ist da')
    expect(draft.previews.de?.html).toContain('<html lang="de">')
    expect((await admin(`/campaigns/${draft.id}/send`, {})).status).toBe(200)
    const mails = await smtp.waitForRecipients(3)
    const got = Object.fromEntries(
      mails.map((m) => [m.to, [m.subject, m.parsed.text?.includes(m.subject === 'Die App ist da' ? 'Hallo' : 'Hello')]]),
    )
    expect(got).toEqual({
      'anna.campaign@example.com': ['Die App ist da', true],
      'bob.campaign@example.com': ['The app is here', true],
      'piotr.campaign@example.com': ['The app is here', true],
    })
    // The mail's own words around the message (the footer's way to stop) are the reader's too.
    expect(mails.find((m) => m.to === 'piotr.campaign@example.com')?.parsed.html).toContain('<html lang="en">')
    expect(mails.find((m) => m.to === 'anna.campaign@example.com')?.parsed.html).toContain('<html lang="de">')
  })

  it.skipIf(!available)('refuses a campaign without English with a 400 naming markdown.en, and makes nothing', async () => {
    const before = ((await (await admin('/campaigns')).json()) as unknown[]).length
    const cases: [object, RegExp][] = [
      [{ subject: { en: 'S', de: 'S' }, markdown: { de: 'Nur Deutsch' } }, /markdown\.en/],
      [{ subject: { de: 'S' }, markdown: { en: 'M', de: 'M' } }, /subject\.en/],
      [{ subject: 'S', markdown: { de: 'Nur Deutsch' } }, /markdown\.en/],
      [{ subject: { en: 'S', fr: 'S' }, markdown: { en: 'M' } }, /markdown\.fr/],
      [{ subject: { en: 'S', xx: 'S' }, markdown: 'M' }, /subject/],
      [{ subject: { en: 'S', de: 'S' }, markdown: { en: 'M', de: 'Hallo {{vorname}}' } }, /markdown\.de: unknown placeholder/],
    ]
    for (const [words, message] of cases) {
      const answer = await admin('/campaigns', { ...words, segment: {}, send: false })
      expect(answer.status, JSON.stringify(words)).toBe(400)
      expect(((await answer.json()) as { message: string }).message, JSON.stringify(words)).toMatch(message)
    }
    expect(((await (await admin('/campaigns')).json()) as unknown[]).length).toBe(before)
  })
})
