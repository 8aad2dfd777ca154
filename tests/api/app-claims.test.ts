// The app's claim and the /app/ page when someone floods them (issue 49), over HTTP to real servers
// behind a trusted proxy (X-Forwarded-For names each client), on both stores and on two instances
// of one PostgreSQL database: wrong codes are counted per client (the app token and the address),
// so a flood from one address never stops a claim from another; the budget is taken before the
// look-up, so a thousand wrong codes at once evaluate at most the budget; /app/ pages that open
// nothing have the same budget per address; right codes take nothing from it; and a claim whose
// answer was lost is answered again to the same token from the same address, 409 to anyone else.
import { randomBytes } from 'node:crypto'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import {
  ALREADY_CLAIMED,
  type AppProfile,
  CLAIM_AGAIN_MS,
  UNKNOWN_APP_LINKS_PER_CLIENT_PER_MINUTE,
  WRONG_CODE_WINDOW_MS,
  WRONG_CODES_PER_CLIENT_PER_MINUTE,
  WRONG_CODES_PER_TOKEN_PER_MINUTE,
} from '../../contract/app'
import type { Funnel } from '../../contract/growth'
import { appCodes, appToken } from '../support/app-links'
import { USER_AGENTS } from '../support/devices'
import { postgresAvailable } from '../support/postgres'
import { startServer, type TestServer } from '../support/server'
import { useTwoInstances } from '../support/instances'
import { STORES } from '../support/stores'
import { StoreUnavailableError } from '../../server/store/types'

const ADMIN_TOKEN = 'app-claims-admin-token-0123456789'
const ENV = { ADMIN_TOKEN, TRUST_PROXY: 'loopback', MAIL_RATE_PER_SECOND: '0' }
const BUDGET = WRONG_CODES_PER_CLIENT_PER_MINUTE
const WINDOW_S = WRONG_CODE_WINDOW_MS / 1000

/** A code of the right shape that no sign-up has: 128 random bits, as the server makes them. */
const randomCode = () => randomBytes(16).toString('base64url')

const claim = (url: string, code: string, token: string, ip: string) =>
  fetch(`${url}/api/app/claim`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, 'x-forwarded-for': ip },
    body: JSON.stringify({ code }),
  })
const page = (url: string, code: string, ip: string) =>
  fetch(`${url}/app/${code}`, { headers: { 'user-agent': USER_AGENTS.android, 'x-forwarded-for': ip }, redirect: 'manual' })

/** How many answers had each status. */
async function statusesOf(answers: Promise<Response>[]): Promise<Record<number, number>> {
  const counts: Record<number, number> = {}
  for (const answer of await Promise.all(answers)) {
    counts[answer.status] = (counts[answer.status] ?? 0) + 1
    await answer.body?.cancel()
  }
  return counts
}

/** `n` requests made by `make`, `inFlight` at a time (a flood that does not need a thousand sockets). */
async function inWaves(n: number, inFlight: number, make: (i: number) => Promise<Response>): Promise<Record<number, number>> {
  const counts: Record<number, number> = {}
  for (let start = 0; start < n; start += inFlight) {
    const wave = await statusesOf(Array.from({ length: Math.min(inFlight, n - start) }, (_, i) => make(start + i)))
    for (const [status, count] of Object.entries(wave)) counts[Number(status)] = (counts[Number(status)] ?? 0) + count
  }
  return counts
}

/** A 429 as the claim answers it: its code, and a wait within the window. */
async function expectWaiting(answer: Response) {
  expect(answer.status).toBe(429)
  const wait = Number(answer.headers.get('retry-after'))
  expect(wait).toBeGreaterThan(0)
  expect(wait).toBeLessThanOrEqual(WINDOW_S)
  expect(((await answer.json()) as { code: string }).code).toBe('too_many_wrong_codes')
}

describe.each(STORES)('the app claim under a flood on $kind', ({ kind, available }) => {
  let server: TestServer
  let token = ''
  let otherToken = ''
  let codes: string[] = []

  beforeAll(async () => {
    if (!available) return
    server = await startServer(ENV, kind)
    codes = await appCodes(
      server.app,
      Array.from({ length: 8 }, (_, i) => `claimer-${i}@example.com`),
    )
    token = await appToken(server.url, ADMIN_TOKEN, 'the app')
    otherToken = await appToken(server.url, ADMIN_TOKEN, 'another build')
  })
  afterAll(async () => {
    await server?.close()
  })
  const code = (i: number) => codes[i] ?? ''

  it.skipIf(!available)(
    'refuses a flood of wrong codes from one address past its budget, and claims from another with the same token',
    async () => {
      const flood = await statusesOf(Array.from({ length: 2 * BUDGET }, () => claim(server.url, randomCode(), token, '198.51.100.1')))
      expect(flood).toEqual({ 404: BUDGET, 429: BUDGET })
      // Past it, the right code waits too: a guess learns nothing from the answer.
      await expectWaiting(await claim(server.url, code(0), token, '198.51.100.1'))
      // Every copy of the app carries this token: another address goes on.
      const answer = await claim(server.url, code(0), token, '198.51.100.2')
      expect(answer.status, await answer.clone().text()).toBe(200)
      expect(((await answer.json()) as AppProfile).email).toBe('claimer-0@example.com')
    },
  )

  it.skipIf(!available)('spends nothing of the budget on a claim or a page the store could not answer (503)', async () => {
    // The store's look-up failing as an outage fails it (the counters still answering): the app's
    // retries of a 503 must not lock its address out for the minute.
    const { claim: looked, open: opened } = server.app.store.app
    const down = () => Promise.reject(new StoreUnavailableError('the store is down'))
    server.app.store.app.claim = down
    server.app.store.app.open = down
    try {
      for (let i = 0; i <= BUDGET; i++) {
        expect((await claim(server.url, randomCode(), token, '198.51.100.77')).status).toBe(503)
        expect((await page(server.url, randomCode(), '198.51.100.77')).status).toBe(503)
      }
    } finally {
      server.app.store.app.claim = looked
      server.app.store.app.open = opened
    }
    expect((await claim(server.url, randomCode(), token, '198.51.100.77')).status).toBe(404)
    expect((await page(server.url, randomCode(), '198.51.100.77')).status).toBe(404)
  })

  it.skipIf(!available)('counts an IPv6 client per /64, as the other limits do', async () => {
    for (let i = 0; i < BUDGET; i++) expect((await claim(server.url, randomCode(), token, `2001:db8:a:1::${i + 1}`)).status).toBe(404)
    await expectWaiting(await claim(server.url, code(1), token, '2001:db8:a:1:ffff:ffff:ffff:ffff'))
    expect((await claim(server.url, code(1), token, '2001:db8:a:2::1')).status).toBe(200)
  })

  it.skipIf(!available)('evaluates at most the budget of 1,000 wrong codes sent at once from one address', async () => {
    const flood = await statusesOf(Array.from({ length: 1000 }, () => claim(server.url, randomCode(), token, '198.51.100.3')))
    expect(Object.keys(flood).sort()).toEqual(['404', '429'])
    // The budget is taken before the look-up: at most that many reach the store, however many come at once.
    expect(flood[404]).toBeLessThanOrEqual(BUDGET)
    expect((flood[404] ?? 0) + (flood[429] ?? 0)).toBe(1000)
  })

  it.skipIf(!available)(
    'takes nothing from the budget for a right code: a claimed one asked for again and again is 409 each time',
    async () => {
      const ip = '198.51.100.7'
      expect((await claim(server.url, code(2), token, ip)).status).toBe(200)
      // Another token from this address: 409, never a wrong code. (One after the other: a claim in
      // flight holds its unit until it is answered, so more than the budget at once would not all pass.)
      const statuses = new Set<number>()
      for (let i = 0; i < BUDGET + 10; i++) statuses.add((await claim(server.url, code(2), otherToken, ip)).status)
      expect(statuses).toEqual(new Set([409]))
      expect((await claim(server.url, randomCode(), otherToken, ip)).status).toBe(404)
    },
  )

  it.skipIf(!available)(
    'gives a claim whose answer was lost again to the same token from the same address, and 409 to anyone else',
    async () => {
      const before = (
        (await (await fetch(`${server.url}/admin/api/funnel`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })).json()) as Funnel
      ).handOff.claimed
      const first = await claim(server.url, code(3), token, '198.51.100.8')
      expect(first.status).toBe(200)
      const profile = await first.text()
      expect((JSON.parse(profile) as AppProfile).email).toBe('claimer-3@example.com')
      // The app timed out and asks again: the same 200, the same profile.
      for (let i = 0; i < 2; i++) {
        const again = await claim(server.url, code(3), token, '198.51.100.8')
        expect(again.status).toBe(200)
        expect(await again.text()).toBe(profile)
      }
      // Another address with the token, or another token from the address: spent.
      for (const [who, ip] of [
        [token, '198.51.100.9'],
        [otherToken, '198.51.100.8'],
      ] as const) {
        const refused = await claim(server.url, code(3), who, ip)
        expect(refused.status).toBe(409)
        expect(((await refused.json()) as { code: string }).code).toBe(ALREADY_CLAIMED)
      }
      // Claimed once: one claim in the funnel (and one audit line, one signup.claimed), not three.
      const after = (
        (await (await fetch(`${server.url}/admin/api/funnel`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })).json()) as Funnel
      ).handOff.claimed
      expect(after).toBe(before + 1)
      const audit = (await (
        await fetch(`${server.url}/admin/api/audit?limit=100`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })
      ).json()) as {
        items: { action: string; target: string | null }[]
      }
      const [listed] = await server.app.store.list({ limit: 1, search: 'claimer-3@' })
      expect(audit.items.filter((item) => item.action === 'profile claimed' && item.target === `signup ${listed?.id}`)).toHaveLength(1)
    },
  )

  it.skipIf(!available)('answers 409 to the same token and address once the ten minutes are over', async () => {
    expect((await claim(server.url, code(4), token, '198.51.100.10')).status).toBe(200)
    expect((await claim(server.url, code(4), token, '198.51.100.10')).status).toBe(200)
    if (kind === 'postgres') {
      // The counters live in the database, on its clock: their window is moved to its end.
      const client = new pg.Client({ connectionString: server.config.DATABASE_URL })
      await client.connect()
      try {
        await client.query(`UPDATE rate_counters SET window_ends = now() - interval '1 second' WHERE key LIKE 'app:claimed:%'`)
      } finally {
        await client.end()
      }
      expect((await claim(server.url, code(4), token, '198.51.100.10')).status).toBe(409)
    } else {
      // SQLite's counters are the process's, on its clock: ten minutes later by Date.
      vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + CLAIM_AGAIN_MS + 1000 })
      try {
        expect((await claim(server.url, code(4), token, '198.51.100.10')).status).toBe(409)
      } finally {
        vi.useRealTimers()
      }
    }
  })

  it.skipIf(!available)(
    'refuses /app/ pages that open nothing from one address past the budget; another address gets its page',
    async () => {
      const flood = await statusesOf(
        Array.from({ length: 2 * UNKNOWN_APP_LINKS_PER_CLIENT_PER_MINUTE }, () => page(server.url, randomCode(), '198.51.100.4')),
      )
      expect(flood).toEqual({ 404: UNKNOWN_APP_LINKS_PER_CLIENT_PER_MINUTE, 429: UNKNOWN_APP_LINKS_PER_CLIENT_PER_MINUTE })
      // Past it, a real code's page waits too (a guess learns nothing), as a page saying so.
      const waiting = await page(server.url, code(5), '198.51.100.4')
      expect(waiting.status).toBe(429)
      expect(Number(waiting.headers.get('retry-after'))).toBeGreaterThan(0)
      expect(Number(waiting.headers.get('retry-after'))).toBeLessThanOrEqual(WINDOW_S)
      expect(waiting.headers.get('content-type')).toContain('text/html')
      expect(waiting.headers.get('cache-control')).toBe('no-store')
      expect(await waiting.text()).not.toContain(code(5))
      const mine = await page(server.url, code(5), '198.51.100.5')
      expect(mine.status).toBe(200)
      expect(await mine.text()).toContain(code(5))
    },
  )

  it.skipIf(!available)('takes nothing from the page budget for a code that opens a page', async () => {
    const statuses = new Set<number>()
    for (let i = 0; i < UNKNOWN_APP_LINKS_PER_CLIENT_PER_MINUTE + 10; i++) {
      const answer = await page(server.url, code(6), '198.51.100.6')
      statuses.add(answer.status)
      await answer.body?.cancel()
    }
    expect(statuses).toEqual(new Set([200]))
    expect((await page(server.url, randomCode(), '198.51.100.6')).status).toBe(404)
  })

  it.skipIf(!available)('answers a body it cannot read as docs/launch.md lists it, taking nothing from the budget', async () => {
    const ip = '198.51.100.11'
    const send = (body: string, contentType?: string) =>
      fetch(`${server.url}/api/app/claim`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'x-forwarded-for': ip, ...(contentType ? { 'content-type': contentType } : {}) },
        body,
      })
    const json = 'application/json'
    const cases: [string, string | undefined, number, string, string][] = [
      ['', json, 400, 'invalid_json', 'The body is empty or not valid JSON'],
      ['{"code":', json, 400, 'invalid_json', 'The body is empty or not valid JSON'],
      ['{"code":12}', json, 400, 'invalid_body', "code: expected the app link's code as a string, got number"],
      ['{"code":null}', json, 400, 'invalid_body', "code: expected the app link's code as a string, got object"],
      ['{}', json, 400, 'FST_ERR_VALIDATION', "body must have required property 'code'"],
      ['[1]', json, 400, 'FST_ERR_VALIDATION', 'body must be object'],
      ['abc', 'text/plain', 400, 'FST_ERR_VALIDATION', 'body must be object'],
      ['{"code":"abc","x":1}', json, 400, 'FST_ERR_VALIDATION', 'body/x: unknown field'],
      ['{"code":""}', json, 400, 'FST_ERR_VALIDATION', 'body/code must NOT have fewer than 1 characters'],
      [JSON.stringify({ code: 'a'.repeat(65) }), json, 400, 'FST_ERR_VALIDATION', 'body/code must NOT have more than 64 characters'],
      ['code=abc', 'application/x-www-form-urlencoded', 415, 'FST_ERR_CTP_INVALID_MEDIA_TYPE', 'Unsupported Media Type'],
      [JSON.stringify({ code: 'a'.repeat(1024 * 1024) }), json, 413, 'payload_too_large', 'Payload Too Large'],
    ]
    for (const [body, contentType, status, errorCode, message] of cases) {
      const answer = await send(body, contentType)
      expect(answer.status, body.slice(0, 40)).toBe(status)
      expect(answer.headers.get('cache-control')).toBe('no-store')
      expect(await answer.json()).toEqual({ code: errorCode, details: null, hint: null, message })
    }
    // A budget's worth more: none of them was a wrong code.
    for (let i = 0; i < BUDGET; i++) expect((await send('{}', json)).status).toBe(400)
    expect((await claim(server.url, randomCode(), token, ip)).status).toBe(404)
  })

  it.skipIf(!available)('stops a token whose wrong codes come from a hundred addresses, as the last resort', async () => {
    const leaked = await appToken(server.url, ADMIN_TOKEN, 'a leaked build')
    const addresses = WRONG_CODES_PER_TOKEN_PER_MINUTE / BUDGET
    expect(addresses).toBeGreaterThanOrEqual(100)
    // Each address within its own budget, all of them together at the token's ceiling.
    const spread = await inWaves(WRONG_CODES_PER_TOKEN_PER_MINUTE, 50, (i) =>
      claim(server.url, randomCode(), leaked, `203.0.113.${1 + (i % addresses)}`),
    )
    expect(spread).toEqual({ 404: WRONG_CODES_PER_TOKEN_PER_MINUTE })
    // A person claiming from a clean address is never held off by the guesses: their first code goes
    // through (a hundred /64s are one home line's /56). A guess from a fresh address gets its one
    // answer, then waits for the token's ceiling (its own budget is far from spent).
    expect((await claim(server.url, code(7), leaked, '192.0.2.200')).status).toBe(200)
    expect((await claim(server.url, randomCode(), leaked, '192.0.2.201')).status).toBe(404)
    await expectWaiting(await claim(server.url, randomCode(), leaked, '192.0.2.201'))
  })
})

describe.skipIf(!postgresAvailable)('the app claim under a flood on two instances of one PostgreSQL database', () => {
  const { instances, on } = useTwoInstances(ENV)
  let token = ''
  let codes: string[] = []

  beforeAll(async () => {
    const [first] = instances()
    if (!first) throw new Error('no instance')
    codes = await appCodes(
      first.app,
      Array.from({ length: 3 }, (_, i) => `pair-${i}@example.com`),
    )
    token = await appToken(on(0), ADMIN_TOKEN, 'the app')
  })
  const code = (i: number) => codes[i] ?? ''

  it('evaluate at most the budget of 1,000 wrong codes sent at once over both from one address; another address claims', async () => {
    const flood = await statusesOf(Array.from({ length: 1000 }, (_, i) => claim(on(i), randomCode(), token, '198.51.100.30')))
    expect(Object.keys(flood).sort()).toEqual(['404', '429'])
    expect(flood[404]).toBeLessThanOrEqual(BUDGET)
    expect((flood[404] ?? 0) + (flood[429] ?? 0)).toBe(1000)
    for (let i = 0; i < 2; i++) await expectWaiting(await claim(on(i), code(0), token, '198.51.100.30'))
    const answer = await claim(on(1), code(0), token, '198.51.100.31')
    expect(answer.status, await answer.clone().text()).toBe(200)
  })

  it('refuse /app/ pages that open nothing past the budget on both; another address gets its page', async () => {
    const flood = await statusesOf(
      Array.from({ length: 4 * UNKNOWN_APP_LINKS_PER_CLIENT_PER_MINUTE }, (_, i) => page(on(i), randomCode(), '198.51.100.32')),
    )
    expect(Object.keys(flood).sort()).toEqual(['404', '429'])
    expect(flood[404]).toBeLessThanOrEqual(UNKNOWN_APP_LINKS_PER_CLIENT_PER_MINUTE)
    for (let i = 0; i < 2; i++) expect((await page(on(i), code(1), '198.51.100.32')).status).toBe(429)
    expect((await page(on(1), code(1), '198.51.100.33')).status).toBe(200)
  })

  it('give a claim whose answer was lost again on the other instance, to the same token and address only', async () => {
    const first = await claim(on(0), code(2), token, '198.51.100.34')
    expect(first.status).toBe(200)
    const again = await claim(on(1), code(2), token, '198.51.100.34')
    expect(again.status).toBe(200)
    expect(await again.text()).toBe(await first.text())
    expect((await claim(on(1), code(2), token, '198.51.100.35')).status).toBe(409)
  })
})
