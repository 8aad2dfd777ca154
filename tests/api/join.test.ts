// The no-script form route (docs/decisions/003-no-script-form.md): a urlencoded post with the same checks, limiter and store
// as the PostgREST insert, answered by a 303 to the page's message for the outcome.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { formTokens } from '../../server/waitlist/form-token'
import { startServer, type TestServer } from '../support/server'
import { STORES } from '../support/stores'

const FORM_SECRET = 'test-form-secret-of-at-least-32-characters'
/** A token signed as the server signs them, issued `ageMs` ago. */
const tokenAged = (ageMs: number, secret = FORM_SECRET) => formTokens(secret, 0).issue(Date.now() - ageMs)

const submit = (url: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
  fetch(`${url}/join`, { method: 'POST', body: new URLSearchParams(fields), headers, redirect: 'manual' })

const insert = (url: string, email: string) =>
  fetch(`${url}/rest/v1/waitlist`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email }) })

/** Where the answer sends the browser: `joined`, `invalid`… (the part after `/#waitlist-`). */
async function outcomeOf(answer: Response): Promise<string> {
  expect(answer.status).toBe(303)
  expect(answer.headers.get('cache-control')).toBe('no-store')
  const location = answer.headers.get('location') ?? ''
  expect(location).toMatch(/^\/#waitlist-[a-z]+$/)
  return location.slice('/#waitlist-'.length)
}

describe.each(STORES)('the no-script form on $kind', ({ kind, available }) => {
  let server: TestServer
  beforeAll(async () => {
    if (available) server = await startServer({ FORM_SECRET, BLOCK_DISPOSABLE_EMAIL: '1' }, kind)
  })
  afterAll(() => server?.close())
  const emails = async () => (await server.app.store.list({ limit: 1000 })).map((row) => row.email)

  describe.skipIf(!available)('POST /join', () => {
    it('stores the address of a form sent in good time, with the campaign of the page it came from', async () => {
      const answer = await submit(
        server.url,
        { email: 'nojs@example.com', token: tokenAged(10_000), website: '' },
        {
          referer: `${server.url}/?utm_source=newsletter&utm_campaign=spring`,
        },
      )
      expect(await outcomeOf(answer)).toBe('joined')
      const [row] = await server.app.store.list({ limit: 1000, search: 'nojs@' })
      expect(row).toMatchObject({
        email: 'nojs@example.com',
        utm_source: 'newsletter',
        utm_medium: null,
        utm_campaign: 'spring',
        referrer: null,
      })
    })

    it('answers a known address as a new one, and keeps one row', async () => {
      for (const email of ['twice@example.com', 'TWICE@example.com']) {
        expect(await outcomeOf(await submit(server.url, { email, token: tokenAged(10_000) }))).toBe('joined')
      }
      expect((await emails()).filter((email) => email.toLowerCase() === 'twice@example.com')).toHaveLength(1)
    })

    it('thanks a bot that fills the honeypot, and stores nothing', async () => {
      const before = await server.app.store.count()
      const answer = await submit(server.url, { email: 'bot1@example.com', token: tokenAged(10_000), website: 'https://spam.example' })
      expect(await outcomeOf(answer)).toBe('joined')
      expect(await server.app.store.count()).toBe(before)
    })

    it('thanks a bot that posts sooner than a person could, and stores nothing', async () => {
      const before = await server.app.store.count()
      expect(await outcomeOf(await submit(server.url, { email: 'bot2@example.com', token: tokenAged(500) }))).toBe('joined')
      expect(await server.app.store.count()).toBe(before)
    })

    it('asks to send again when the token is missing, forged, too old or from another secret', async () => {
      const before = await server.app.store.count()
      const [issuedAt] = tokenAged(10_000).split('.')
      const tokens = [
        undefined,
        '',
        'garbage',
        `${issuedAt}.AAAAAAAAAAAAAAAAAAAAAA`,
        tokenAged(25 * 60 * 60 * 1000),
        tokenAged(10_000, 'another-secret-of-at-least-32-characters'),
      ]
      for (const token of tokens) {
        const fields: Record<string, string> = { email: 'late@example.com', ...(token === undefined ? {} : { token }) }
        expect(await outcomeOf(await submit(server.url, fields))).toBe('expired')
      }
      expect(await server.app.store.count()).toBe(before)
    })

    it('refuses what the insert refuses, disposable domains included, as an invalid address', async () => {
      const before = await server.app.store.count()
      for (const email of [
        '',
        'nope',
        'a@b@c',
        `${'x'.repeat(65)}@example.com`,
        'nul\u0000@example.com',
        'temp@mailinator.com',
        'temp@eu.mailinator.com',
      ]) {
        expect(await outcomeOf(await submit(server.url, { email, token: tokenAged(10_000) })), email).toBe('invalid')
      }
      expect(await outcomeOf(await submit(server.url, { token: tokenAged(10_000) }))).toBe('invalid')
      expect(await server.app.store.count()).toBe(before)
    })

    it('takes only a form: JSON, a wrong type or an oversized body is refused and stores nothing', async () => {
      const before = await server.app.store.count()
      const json = await fetch(`${server.url}/join`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'json@example.com' }),
      })
      expect(json.status).toBe(415)
      const deep = await fetch(`${server.url}/join`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: `{"email":"deep@example.com","utm_source":${'['.repeat(5000)}${']'.repeat(5000)}}`,
      })
      expect(deep.status).toBe(415)
      const nested = `${'['.repeat(300)}${']'.repeat(300)}`
      expect(await outcomeOf(await submit(server.url, { email: nested, token: tokenAged(10_000) }))).toBe('invalid')
      const huge = await submit(server.url, { email: 'big@example.com', token: tokenAged(10_000), website: 'x'.repeat(5000) })
      expect(huge.status).toBe(413)
      expect(await server.app.store.count()).toBe(before)
    })
  })

  describe.skipIf(!available)('the page the server sends', () => {
    const tokenOf = (html: string) => /<input type="hidden" name="token" value="([^"]+)"/.exec(html)?.[1] ?? ''

    it('carries a token issued within the second of the visit, which the route accepts once it is old enough', async () => {
      const before = Date.now()
      const html = await (await fetch(`${server.url}/`)).text()
      const after = Date.now()
      const token = tokenOf(html)
      expect(token).toMatch(/^[0-9a-z]+\.[\w-]{22}$/)
      const issuedAt = parseInt(token.split('.')[0] ?? '', 36)
      // The visits of one second share their page (server/http/landing-page.ts): never younger than the visit.
      expect(issuedAt).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000)
      expect(issuedAt).toBeLessThanOrEqual(after)
      // Sent at once, it is a bot's (the minimum is FORM_MIN_SECONDS, 2 s by default); later, good.
      expect(formTokens(FORM_SECRET, 2000).check(token)).toBe('tooFast')
      expect(formTokens(FORM_SECRET, 2000).check(token, issuedAt + 2000)).toBe('ok')
      expect(await outcomeOf(await submit(server.url, { email: 'quick@example.com', token }))).toBe('joined')
      expect(await emails()).not.toContain('quick@example.com')
    })

    it('compresses the page once a second: the visits of one second share its bytes, the next second has a new token', async () => {
      const visit = async () => {
        const answer = await fetch(`${server.url}/`, { headers: { 'accept-encoding': 'br' } })
        expect(answer.headers.get('content-encoding')).toBe('br')
        expect(answer.headers.get('vary')).toBe('accept-encoding')
        return { at: Date.now(), html: await answer.text() }
      }
      // Start at the beginning of a second, so that three visits fall into it.
      await new Promise((resolve) => setTimeout(resolve, 1000 - (Date.now() % 1000) + 20))
      const visits = [await visit(), await visit(), await visit()]
      const sameSecond = visits.filter((v) => Math.floor(v.at / 1000) === Math.floor((visits[0]?.at ?? 0) / 1000))
      expect(sameSecond.length).toBeGreaterThanOrEqual(2)
      expect(new Set(sameSecond.map((v) => tokenOf(v.html))).size).toBe(1)
      await new Promise((resolve) => setTimeout(resolve, 1000))
      const later = await visit()
      expect(tokenOf(later.html)).not.toBe(tokenOf(visits[0]?.html ?? ''))
      expect(parseInt(tokenOf(later.html).split('.')[0] ?? '', 36)).toBeGreaterThan(visits[0]?.at ?? 0)
    })

    it('is compressed as it is sent, and never revalidated into an old token', async () => {
      for (const [accept, encoding] of [
        ['br, gzip', 'br'],
        ['gzip', 'gzip'],
        ['identity', null],
      ] as const) {
        const answer = await fetch(`${server.url}/`, { headers: { 'accept-encoding': accept } })
        expect(answer.headers.get('content-encoding')).toBe(encoding)
        expect(answer.headers.get('cache-control')).toBe('no-cache')
        expect(answer.headers.get('etag')).toBeNull()
        expect(answer.headers.get('last-modified')).toBeNull()
        expect(await answer.text()).toContain('<form')
      }
    })
  })
})

describe('the limiter', () => {
  let server: TestServer | undefined
  afterEach(() => server?.close())

  it('is shared with the PostgREST insert: a client cannot double its allowance', async () => {
    server = await startServer({ FORM_SECRET, RATE_LIMIT_PER_MINUTE: '3' })
    const url = server.url
    for (const email of ['r1@example.com', 'r2@example.com']) {
      expect((await insert(url, email)).status).toBe(201)
    }
    expect(await outcomeOf(await submit(url, { email: 'r3@example.com', token: tokenAged(10_000) }))).toBe('joined')
    expect(await outcomeOf(await submit(url, { email: 'r4@example.com', token: tokenAged(10_000) }))).toBe('busy')
    expect((await insert(url, 'r5@example.com')).status).toBe(429)
    expect((await server.app.store.list({ limit: 10 })).map((row) => row.email).sort()).toEqual([
      'r1@example.com',
      'r2@example.com',
      'r3@example.com',
    ])
  })

  it('turns a failing store into a message to try again, never a crash or a lost sign-up', async () => {
    server = await startServer({ FORM_SECRET })
    await server.app.store.close()
    expect(await outcomeOf(await submit(server.url, { email: 'later@example.com', token: tokenAged(10_000) }))).toBe('error')
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200)
  })

  it('without FORM_SECRET signs with a key of its own, which the next process does not know', async () => {
    server = await startServer()
    const html = await (await fetch(`${server.url}/`)).text()
    const token = /name="token" value="([^"]+)"/.exec(html)?.[1] ?? ''
    await server.close()
    server = await startServer()
    expect(await outcomeOf(await submit(server.url, { email: 'restart@example.com', token }))).toBe('expired')
  })
})

describe('BLOCK_DISPOSABLE_EMAIL on the PostgREST insert', () => {
  let server: TestServer | undefined
  afterEach(() => server?.close())
  it('answers a disposable address as the format check answers a bad one; off by default', async () => {
    server = await startServer({ BLOCK_DISPOSABLE_EMAIL: '1' })
    const refused = await insert(server.url, 'temp@mailinator.com')
    expect(refused.status).toBe(400)
    const bad = await insert(server.url, 'nope')
    expect(await refused.json()).toEqual(await bad.json())
    expect((await insert(server.url, 'real@example.com')).status).toBe(201)
    expect(await server.app.store.count()).toBe(1)
    await server.close()
    server = await startServer()
    expect((await insert(server.url, 'temp@mailinator.com')).status).toBe(201)
  })
})
