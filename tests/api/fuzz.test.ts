// Random requests at the running server: never a 5xx or a crash, nothing stored that is not a
// valid sign-up, and a valid sign-up still works afterwards.
import fc from 'fast-check'
import { request } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MAX_ATTRIBUTION_LENGTH } from '../../contract/waitlist'
import { isValidEmail } from '../../server/waitlist/check-row'
import { startServer, type TestServer } from '../support/server'
import { STORES } from '../support/stores'

const KEY = 'fuzz-anon-key'
const RUNS = 400

interface Sent {
  method: string
  path: string
  headers: Record<string, string>
  body: string | undefined
}

function send(base: string, { method, path, headers, body }: Sent): Promise<{ status: number; type: string; text: string }> {
  return new Promise((resolve, reject) => {
    // Framed with Content-Length: Node's client would otherwise send a GET body unframed, which
    // the server rightly reads as a broken next request.
    const framed = body === undefined ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body)) }
    const req = request(`${base}${path || '/'}`, { method, headers: framed }, (res) => {
      let text = ''
      res.on('data', (chunk: Buffer) => (text += chunk.toString()))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type'] ?? ''), text }))
    })
    req.on('error', reject)
    req.end(body)
  })
}

const printable = fc.stringMatching(/^[\x20-\x7e]{0,40}$/)
const email = fc.oneof(
  fc.emailAddress(),
  fc.constantFrom('a@b', 'A@B.CO', 'x', '', ' a@b.co', 'a@b.co ', `${'a'.repeat(65)}@b.co`, 'zoë@example.com', 'a\u0000@b.co'),
  fc.string(),
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
)
const row = fc.record(
  {
    email,
    utm_source: fc.oneof(fc.string({ maxLength: 250 }), fc.constant(null), fc.integer()),
    referrer: fc.oneof(fc.string({ maxLength: 250 }), fc.constant(null)),
    id: fc.integer(),
    created_at: fc.constant('2020-01-01'),
    website: fc.string(),
  },
  { requiredKeys: [] },
)
const body = fc.oneof(
  row.map((r) => JSON.stringify(r)),
  fc.array(row, { maxLength: 3 }).map((rows) => JSON.stringify(rows)),
  fc.json(),
  fc.string(),
  fc.constant(undefined),
  fc.constant(JSON.stringify({ email: 'big@example.com', referrer: 'x'.repeat(20_000) })),
)
const anything: fc.Arbitrary<Sent> = fc.record({
  method: fc.constantFrom('GET', 'HEAD', 'POST', 'POST', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'),
  path: fc.oneof(
    fc.constantFrom(
      '/rest/v1/waitlist',
      '/rest/v1/waitlist?columns=%22email%22',
      '/rest/v1/waitlist?columns=email,utm_source',
      '/rest/v1/waitlist?on_conflict=email',
      `/rest/v1/waitlist?apikey=${KEY}`,
      '/rest/v1/waitlist?select=*',
      '/rest/v1/nope',
      '/rest/v1/',
      '/rest/v1/waitlist/1',
      '/',
      '/healthz',
      '/readyz',
      '/assets/missing.js',
    ),
    fc.webPath(),
    fc.string().map((s) => `/rest/v1/${encodeURIComponent(s)}`),
  ),
  headers: fc.record(
    {
      'content-type': fc.oneof(
        fc.constantFrom(
          'application/json',
          'application/json; charset=utf-8',
          'text/plain',
          'application/x-www-form-urlencoded',
          'APPLICATION/JSON',
          '',
        ),
        printable,
      ),
      apikey: fc.constantFrom(KEY, KEY, 'wrong', ''),
      authorization: fc.oneof(fc.constantFrom(`Bearer ${KEY}`, 'Bearer ', 'Bearer a.b', 'Bearer a.b.c', 'Basic eDp5'), printable),
      'content-profile': fc.constantFrom('public', 'private', ''),
      prefer: fc.oneof(
        fc.constantFrom(
          'return=minimal',
          'count=exact',
          'return=representation',
          'resolution=ignore-duplicates',
          'return=minimal, count=exact',
        ),
        printable,
      ),
      origin: fc.constantFrom('https://kennect.app', 'null'),
    },
    { requiredKeys: [] },
  ),
  body,
})
// Inserts as the page and supabase-js send them, with random rows: the part that can store.
const insert: fc.Arbitrary<Sent> = fc.record({
  method: fc.constant('POST'),
  path: fc.constantFrom('/rest/v1/waitlist', '/rest/v1/waitlist?columns=%22email%22,%22referrer%22'),
  headers: fc.constant({ apikey: KEY, 'content-type': 'application/json', prefer: 'return=minimal' }),
  body: fc
    .oneof(
      fc.record(
        { email: fc.oneof(fc.emailAddress(), email), utm_source: fc.option(fc.string({ maxLength: 210 })) },
        { requiredKeys: ['email'] },
      ),
      fc.array(row, { minLength: 1, maxLength: 2 }),
    )
    .map((value) => JSON.stringify(value)),
})
const sent = fc.oneof({ arbitrary: insert, weight: 2 }, { arbitrary: anything, weight: 3 })

describe.each(STORES)('fuzzing the server on $kind', ({ kind, available }) => {
  let server: TestServer
  beforeAll(async () => {
    if (available) server = await startServer({ WAITLIST_ANON_KEY: KEY }, kind)
  })
  afterAll(() => server?.close())

  it.skipIf(!available)(
    `answers ${RUNS} random requests without a 5xx and stores only valid sign-ups`,
    async () => {
      const statuses = new Map<number, number>()
      await fc.assert(
        fc.asyncProperty(sent, async (input) => {
          const before = await server.app.store.count()
          const answer = await send(server.url, input)
          const stored = (await server.app.store.count()) - before
          // One row at most, and only with a 201: a refused request changes nothing.
          expect(stored, JSON.stringify(input).slice(0, 300)).toBe(answer.status === 201 ? stored && 1 : 0)
          statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1)
          expect(answer.status, JSON.stringify(input).slice(0, 300)).toBeLessThan(500)
          if (answer.status >= 400 && input.method !== 'HEAD' && input.path.startsWith('/rest/v1')) {
            expect(answer.type).toBe('application/json; charset=utf-8')
            expect(answer.text).not.toMatch(/\bat .+:\d+:\d+|SELECT|INSERT|sqlite|node_modules/i)
          }
        }),
        { numRuns: RUNS },
      )
      const rows = []
      for (let afterId = 0; ;) {
        const page = await server.app.store.list({ afterId, limit: 1000 })
        if (page.length === 0) break
        rows.push(...page)
        afterId = page.at(-1)?.id ?? afterId
      }
      expect(rows).toHaveLength(await server.app.store.count())
      for (const r of rows) {
        expect(isValidEmail(r.email), r.email).toBe(true)
        for (const value of [r.utm_source, r.utm_medium, r.utm_campaign, r.referrer]) {
          expect((value ?? '').length).toBeLessThanOrEqual(MAX_ATTRIBUTION_LENGTH)
        }
      }
      const after = await send(server.url, {
        method: 'POST',
        path: '/rest/v1/waitlist',
        headers: { apikey: KEY, 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'after-the-storm@example.com' }),
      })
      expect(after.status).toBe(201)
      expect((await server.app.store.list({ afterId: rows.at(-1)?.id ?? 0, limit: 10 })).map((r) => r.email)).toContain(
        'after-the-storm@example.com',
      )
      const seen = [...statuses].sort(([a], [b]) => a - b).map(([status, n]) => `${status}×${n}`)
      console.log(`fuzz ${kind}: ${RUNS} requests, ${rows.length} rows stored, statuses ${seen.join(' ')}`)
    },
    120_000,
  )
})
