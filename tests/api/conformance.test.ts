// docs/protocol.md's conformance checklist, with supabase-js as the caller where the checklist
// says so and a raw HTTP client elsewhere, on every store. C9 runs in Chromium
// (tests/browser/conformance.test.ts), C18 and C19 in their own files.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startServer, type TestServer } from '../support/server'
import { STORES } from '../support/stores'
import { supabaseClient } from '../support/supabase'

const KEY = 'conformance-anon-key'
const tooLong = `${'a'.repeat(59)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(63)}.com` // 255 characters
const longLocal = `${'a'.repeat(65)}@example.com`

describe.each(STORES)('conformance on $kind', ({ kind, available }) => {
  let server: TestServer
  beforeAll(async () => {
    if (available) server = await startServer({ WAITLIST_ANON_KEY: KEY }, kind)
  })
  afterAll(() => server?.close())

  const client = () => supabaseClient(server.url, KEY)
  const waitlist = () => client().from('waitlist')
  const count = () => server.app.store.count()
  const emails = async () => (await server.app.store.list({ limit: 1000 })).map((r) => r.email)
  const raw = (init: RequestInit & { path?: string } = {}) =>
    fetch(`${server.url}${init.path ?? '/rest/v1/waitlist'}`, {
      method: 'POST',
      ...init,
      headers: { apikey: KEY, 'Content-Type': 'application/json', ...(init.headers as Record<string, string>) },
    })

  describe.skipIf(!available)('supabase-js', () => {
    it('C1: insert stores the row and answers 201 with no error', async () => {
      const { error, status, data } = await waitlist().insert({ email: 'a@b.co' })
      expect(error).toBeNull()
      expect(status).toBe(201)
      expect(data).toBeNull()
      expect(await emails()).toContain('a@b.co')
    })

    it('C2: the same address in capitals answers 201 and stays one row', async () => {
      const before = await count()
      const { error, status } = await waitlist().insert({ email: 'A@B.CO' })
      expect([error, status]).toEqual([null, 201])
      expect(await count()).toBe(before)
      expect((await emails()).filter((e) => e.toLowerCase() === 'a@b.co')).toHaveLength(1)
    })

    it('C3: malformed addresses and numbers fail the format check; a@b is valid', async () => {
      for (const email of ['x', 5]) {
        const { error, status } = await waitlist().insert({ email })
        expect(status).toBe(400)
        expect(error).toMatchObject({ code: '23514', message: expect.stringContaining('waitlist_email_format') })
      }
      const { error, status } = await waitlist().insert({ email: 'a@b' })
      expect([error, status]).toEqual([null, 201])
    })

    it('C4: a 255-character address and a 65-character local part fail the length check', async () => {
      for (const email of [tooLong, longLocal]) {
        const { error, status } = await waitlist().insert({ email })
        expect(status).toBe(400)
        expect(error).toMatchObject({ code: '23514', message: expect.stringContaining('waitlist_email_length') })
      }
    })

    it('C5: a row without an address, or with null, violates not-null', async () => {
      const rows: Record<string, unknown>[] = [{}, { email: null }]
      for (const row of rows) {
        const { error, status } = await waitlist().insert(row)
        expect(status).toBe(400)
        expect(error).toMatchObject({ code: '23502' })
      }
    })

    it('C6: an unknown column is refused', async () => {
      const { error, status } = await waitlist().insert({ email: 'c6@example.com', website: 'x' })
      expect(status).toBe(400)
      expect(error).toMatchObject({ code: 'PGRST204', message: "Could not find the 'website' column of 'waitlist' in the schema cache" })
      const asArray = await waitlist().insert([{ email: 'c6@example.com', website: 'x' }])
      expect(asArray.error?.code).toBe('PGRST204')
      expect(await emails()).not.toContain('c6@example.com')
    })

    it('C7: created_at, insert().select() and upsert() are permission errors', async () => {
      const attempts = [
        waitlist().insert({ email: 'c7@example.com', created_at: '2020-01-01T00:00:00Z' }),
        waitlist().insert({ email: 'c7@example.com' }).select(),
        waitlist().upsert({ email: 'c7@example.com' }),
      ]
      for (const { error, status } of await Promise.all(attempts)) {
        expect(status).toBe(401)
        expect(error).toMatchObject({ code: '42501', message: 'permission denied for table waitlist' })
      }
      expect(await emails()).not.toContain('c7@example.com')
    })

    it('C8: upsert with onConflict is refused with 42P10', async () => {
      const { error, status } = await waitlist().upsert({ email: 'c8@example.com' }, { onConflict: 'email', ignoreDuplicates: true })
      expect(status).toBe(400)
      expect(error).toMatchObject({ code: '42P10' })
    })

    it('C10: a wrong key is refused with the gateway body', async () => {
      const { error, status } = await supabaseClient(server.url, 'wrong-key').from('waitlist').insert({ email: 'c10@example.com' })
      expect(status).toBe(401)
      expect(error?.message).toBe('Invalid API key')
    })

    it('C12: another schema is refused with 406 PGRST106', async () => {
      const { error, status } = await supabaseClient(server.url, KEY, { schema: 'private' })
        .from('waitlist')
        .insert({ email: 'c12@example.com' })
      expect(status).toBe(406)
      expect(error).toMatchObject({ code: 'PGRST106', message: 'Invalid schema: private' })
    })

    it('C13: select is a permission error and returns no row', async () => {
      const { data, error, status } = await waitlist().select('email')
      expect(status).toBe(401)
      expect(data).toBeNull()
      expect(error).toMatchObject({ code: '42501' })
    })

    it('C14: an unknown table is a 404 with a JSON error, never a silent success', async () => {
      const { error, status } = await client().from('nope').insert({ email: 'c14@example.com' })
      expect(status).toBe(404)
      expect(error).toMatchObject({ code: 'PGRST205', message: "Could not find the table 'public.nope' in the schema cache" })
    })

    it('stores the optional attribution columns', async () => {
      const { error } = await waitlist().insert({
        email: 'utm@example.com',
        utm_source: 'newsletter',
        utm_medium: 'email',
        utm_campaign: 'launch',
        referrer: 'dogs.example',
      })
      expect(error).toBeNull()
      const row = (await server.app.store.list({ limit: 1000 })).find((r) => r.email === 'utm@example.com')
      expect(row).toMatchObject({ utm_source: 'newsletter', utm_medium: 'email', utm_campaign: 'launch', referrer: 'dogs.example' })
    })
  })

  describe.skipIf(!available)('raw HTTP', () => {
    it('C10: without a key, and with a wrong key, answers the two gateway bodies', async () => {
      const none = await fetch(`${server.url}/rest/v1/waitlist`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: '{"email":"a@b.co"}',
      })
      expect(none.status).toBe(401)
      expect(await none.json()).toEqual({
        message: 'No API key found in request',
        hint: 'No `apikey` request header or url param was found.',
      })
      const wrong = await raw({ headers: { apikey: 'nope' }, body: '{"email":"a@b.co"}' })
      expect(wrong.status).toBe(401)
      expect(await wrong.json()).toEqual({
        message: 'Invalid API key',
        hint: 'Double check your Supabase `anon` or `service_role` API key.',
      })
      const inQuery = await fetch(`${server.url}/rest/v1/waitlist?apikey=${KEY}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: '{"email":"query-key@b.co"}',
      })
      expect(inQuery.status).toBe(201)
    })

    it('refuses a bearer token that is empty or not a JWT', async () => {
      const empty = await raw({ headers: { Authorization: 'Bearer ' }, body: '{"email":"a@b.co"}' })
      expect(empty.status).toBe(401)
      expect(await empty.json()).toMatchObject({ code: 'PGRST301', message: 'Empty JWT is sent in Authorization header' })
      const parts = await raw({ headers: { Authorization: 'Bearer abc.def' }, body: '{"email":"a@b.co"}' })
      expect(await parts.json()).toMatchObject({ code: 'PGRST301', message: 'Expected 3 parts in JWT; got 2' })
      const key = await raw({ headers: { Authorization: `Bearer ${KEY}` }, body: '{"email":"bearer@b.co"}' })
      expect(key.status).toBe(201)
    })

    it.each([
      ['}{', 'application/json', 'Empty or invalid json'],
      ['', 'application/json', 'Empty or invalid json'],
      ['{"email":"a@b.co"}', 'text/plain', 'Content-Type not acceptable: text/plain'],
    ])('C11: body %j as %s answers 400 PGRST102', async (body, type, message) => {
      const response = await raw({ headers: { 'Content-Type': type }, body })
      expect(response.status).toBe(400)
      expect(await response.json()).toEqual({ code: 'PGRST102', details: null, hint: null, message })
    })

    it('C12: Content-Profile other than public answers 406', async () => {
      const response = await raw({ headers: { 'Content-Profile': 'private' }, body: '{"email":"a@b.co"}' })
      expect(response.status).toBe(406)
      expect(await response.json()).toMatchObject({ code: 'PGRST106', message: 'Invalid schema: private' })
    })

    it('C13: GET, HEAD, PATCH and DELETE never reveal or change a row; PUT is 405', async () => {
      await raw({ body: '{"email":"private@example.com"}' })
      const before = await count()
      for (const method of ['GET', 'PATCH', 'DELETE']) {
        const response = await raw({ method, path: '/rest/v1/waitlist?select=email', body: method === 'GET' ? null : '{"email":"x@y.z"}' })
        expect(response.status).toBe(401)
        expect(response.headers.get('www-authenticate')).toBe('Bearer')
        const body = await response.text()
        expect(JSON.parse(body)).toMatchObject({ code: '42501', message: 'permission denied for table waitlist' })
        expect(body).not.toContain('private@example.com')
      }
      const head = await raw({ method: 'HEAD' })
      expect([head.status, await head.text()]).toEqual([401, ''])
      const put = await raw({ method: 'PUT', body: '{"email":"x@y.z"}' })
      expect(put.status).toBe(405)
      expect(await put.json()).toMatchObject({ code: 'PGRST105' })
      expect(await count()).toBe(before)
      expect(await emails()).toContain('private@example.com')
    })

    it('C14: unknown tables and deeper paths answer JSON 404s', async () => {
      const table = await raw({ path: '/rest/v1/nope', body: '{"email":"a@b.co"}' })
      expect(table.status).toBe(404)
      expect(await table.json()).toMatchObject({ code: 'PGRST205' })
      const deeper = await raw({ path: '/rest/v1/waitlist/1', body: '{"email":"a@b.co"}' })
      expect(deeper.status).toBe(404)
      expect(await deeper.json()).toMatchObject({ code: 'PGRST125', message: 'Invalid path specified in request URL' })
    })

    it.each([
      ['apikey, authorization, content-profile, content-type, x-client-info'],
      ['apikey, authorization, content-profile, content-type, x-client-info, prefer'],
    ])('C15: preflight asking for %s answers 204 without a key', async (requested) => {
      const response = await fetch(`${server.url}/rest/v1/waitlist`, {
        method: 'OPTIONS',
        headers: {
          Origin: 'https://somewhere.example',
          'Access-Control-Request-Method': 'POST',
          'Access-Control-Request-Headers': requested,
        },
      })
      expect(response.status).toBe(204)
      expect(response.headers.get('access-control-allow-origin')).toBe('*')
      expect(response.headers.get('access-control-allow-headers')).toBe(requested)
      expect(response.headers.get('access-control-max-age')).toBe('3600')
    })

    it('C17: a 17 KiB body answers 413 with a JSON error', async () => {
      const response = await raw({ body: JSON.stringify({ email: 'big@example.com', referrer: 'x'.repeat(17 * 1024) }) })
      expect(response.status).toBe(413)
      expect(await response.json()).toEqual({ code: 'payload_too_large', details: null, hint: null, message: 'Payload Too Large' })
      expect(response.headers.get('access-control-allow-origin')).toBe('*')
    })

    it('rejects U+0000 with 22P05 and an over-long attribution with its check', async () => {
      const nul = await raw({ body: '{"email":"a\\u0000@b.co"}' })
      expect(await nul.json()).toMatchObject({ code: '22P05' })
      const long = await raw({ body: JSON.stringify({ email: 'a@b.co', utm_campaign: 'x'.repeat(201) }) })
      expect(await long.json()).toMatchObject({ code: '23514', message: expect.stringContaining('waitlist_attribution_length') })
    })
  })
})

describe.each(STORES)('C16: rate limit on $kind', ({ kind, available }) => {
  let server: TestServer
  beforeAll(async () => {
    if (available) server = await startServer({ RATE_LIMIT_PER_MINUTE: '3', RATE_LIMIT_PER_HOUR: '100' }, kind)
  })
  afterAll(() => server?.close())

  it.skipIf(!available)('answers the request over the per-minute limit with 429, CORS headers, Retry-After and a hint', async () => {
    const join = (i: number) =>
      fetch(`${server.url}/rest/v1/waitlist`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Origin: 'https://kennect.app' },
        body: JSON.stringify({ email: `rl${i}@example.com` }),
      })
    const statuses = []
    for (let i = 0; i < 3; i++) statuses.push((await join(i)).status)
    expect(statuses).toEqual([201, 201, 201])
    const over = await join(3)
    expect(over.status).toBe(429)
    const retryAfter = Number(over.headers.get('retry-after'))
    expect(retryAfter).toBeGreaterThan(0)
    expect(retryAfter).toBeLessThanOrEqual(60)
    expect(await over.json()).toEqual({
      code: 'over_request_rate_limit',
      details: null,
      hint: `Retry after ${retryAfter} seconds`,
      message: 'Too many requests',
    })
    expect(over.headers.get('access-control-allow-origin')).toBe('*')
    expect(over.headers.get('access-control-expose-headers')).toContain('Retry-After')
    expect(over.headers.get('x-ratelimit-remaining')).toBe('0')
    expect(await server.app.store.count()).toBe(3)

    const preflight = await fetch(`${server.url}/rest/v1/waitlist`, {
      method: 'OPTIONS',
      headers: { Origin: 'https://kennect.app', 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'content-type' },
    })
    expect(preflight.status).toBe(204)
    // Only the insert is limited.
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200)
  })
})
