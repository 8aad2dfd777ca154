import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startServer, type TestServer } from '../support/server'
import { STORES } from '../support/stores'

describe.each(STORES)('waitlist API on $kind', ({ kind, available }) => {
  let server: TestServer
  beforeAll(async () => {
    if (available) server = await startServer({}, kind)
  })
  afterAll(() => server?.close())

  const json = { 'Content-Type': 'application/json' }
  const post = (body: string, headers: Record<string, string> = json, path = '/rest/v1/waitlist') =>
    fetch(`${server.url}${path}`, { method: 'POST', headers, body })
  const stored = async () => (await server.app.store.list({ limit: 1000 })).map((row) => row.email)

  describe.skipIf(!available)('POST /rest/v1/waitlist', () => {
    it('stores a new e-mail and answers 201 with an empty body', async () => {
      const response = await post(JSON.stringify({ email: 'ada@example.com' }))
      expect(response.status).toBe(201)
      expect(await response.text()).toBe('')
      expect(response.headers.get('content-length')).toBe('0')
      expect(response.headers.get('content-type')).toBeNull()
      expect(response.headers.get('content-range')).toBe('*/*')
      expect(response.headers.get('access-control-allow-origin')).toBe('*')
      expect(await stored()).toContain('ada@example.com')
    })

    it('answers a duplicate in another letter case exactly like a new address and stores nothing', async () => {
      await post(JSON.stringify({ email: 'grace@example.com' }))
      const before = await server.app.store.count()
      const response = await post(JSON.stringify({ email: 'GRACE@Example.COM' }))
      expect(response.status).toBe(201)
      expect(await response.text()).toBe('')
      expect(await server.app.store.count()).toBe(before)
      expect((await stored()).filter((e) => e.toLowerCase() === 'grace@example.com')).toEqual(['grace@example.com'])
    })

    it('rejects an invalid address with 400 23514 and stores nothing', async () => {
      const before = await server.app.store.count()
      const response = await post(JSON.stringify({ email: 'not-an-address' }))
      expect(response.status).toBe(400)
      expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8')
      expect(await response.json()).toEqual({
        code: '23514',
        details: null,
        hint: null,
        message: 'new row for relation "waitlist" violates check constraint "waitlist_email_format"',
      })
      expect(await server.app.store.count()).toBe(before)
    })

    it.each([
      ['broken JSON', '}{'],
      ['an empty body', ''],
    ])('rejects %s with 400 PGRST102', async (_name, body) => {
      const response = await post(body)
      expect(response.status).toBe(400)
      expect(await response.json()).toMatchObject({ code: 'PGRST102', message: 'Empty or invalid json' })
    })

    it('rejects JSON nested deeper than a sign-up could need with 400 PGRST102, and stores nothing', async () => {
      const before = await server.app.store.count()
      const deep = `${'['.repeat(5000)}${']'.repeat(5000)}`
      for (const body of [
        `{"email":"deep@example.com","utm_source":${deep}}`,
        `[{"email":"deep2@example.com","referrer":{"a":${deep}}}]`,
      ]) {
        const response = await post(body)
        expect(response.status).toBe(400)
        expect(await response.json()).toEqual({
          code: 'PGRST102',
          details: 'JSON nested deeper than 32 levels',
          hint: null,
          message: 'Empty or invalid json',
        })
      }
      expect(await server.app.store.count()).toBe(before)
    })

    it('rejects a body that is not JSON by its content type', async () => {
      const response = await post('email=a@b.co', { 'Content-Type': 'text/plain' })
      expect(response.status).toBe(400)
      expect(await response.json()).toMatchObject({ code: 'PGRST102', message: 'Content-Type not acceptable: text/plain' })
    })

    it('counts the row when asked with Prefer: count=exact', async () => {
      const response = await post(JSON.stringify({ email: 'count@example.com' }), { ...json, Prefer: 'return=minimal, count=exact' })
      expect(response.status).toBe(201)
      expect(response.headers.get('content-range')).toBe('*/1')
      expect(response.headers.get('preference-applied')).toBe('return=minimal, count=exact')
    })

    it('keeps CORS headers on error answers', async () => {
      const response = await post('{"email":5}', { ...json, Origin: 'https://elsewhere.example' })
      expect(response.status).toBe(400)
      expect(response.headers.get('access-control-allow-origin')).toBe('*')
      expect(response.headers.get('access-control-expose-headers')).toContain('Content-Range')
    })
  })

  describe.skipIf(!available)('OPTIONS /rest/v1/waitlist', () => {
    it('answers the preflight of supabase-js with 204 and echoes the requested headers', async () => {
      const requested = 'apikey, authorization, content-profile, content-type, x-client-info, prefer'
      const response = await fetch(`${server.url}/rest/v1/waitlist`, {
        method: 'OPTIONS',
        headers: { Origin: 'https://kennect.app', 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': requested },
      })
      expect(response.status).toBe(204)
      expect(response.headers.get('access-control-allow-origin')).toBe('*')
      expect(response.headers.get('access-control-allow-headers')).toBe(requested)
      expect(response.headers.get('access-control-allow-methods')?.replace(/\s/g, '')).toBe('GET,HEAD,POST,PATCH,DELETE,OPTIONS')
      expect(response.headers.get('access-control-max-age')).toBe('3600')
    })
  })

  describe.skipIf(!available)('the rest of /rest/v1', () => {
    it('never lets the public read the list', async () => {
      await post(JSON.stringify({ email: 'secret@example.com' }))
      const response = await fetch(`${server.url}/rest/v1/waitlist?select=email`)
      expect(response.status).toBe(401)
      const body = await response.text()
      expect(JSON.parse(body)).toMatchObject({ code: '42501', message: 'permission denied for table waitlist' })
      expect(body).not.toContain('secret@example.com')
    })

    it('answers an unknown table with a JSON 404, never an empty one', async () => {
      const response = await post(JSON.stringify({ email: 'a@b.co' }), json, '/rest/v1/nope')
      expect(response.status).toBe(404)
      expect(await response.json()).toMatchObject({
        code: 'PGRST205',
        message: "Could not find the table 'public.nope' in the schema cache",
      })
    })
  })

  describe.skipIf(!available)('health', () => {
    it('answers /healthz and /readyz while the store answers', async () => {
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200)
      expect((await fetch(`${server.url}/readyz`)).status).toBe(200)
    })
  })
})
