import { createHash } from 'node:crypto'
import { afterEach, describe, expect, it } from 'vitest'
import { type ServerProcess, spawnServer } from '../support/process'
import { startServer, type TestServer, tempSqlitePath } from '../support/server'

let server: TestServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

const join = (url: string, email: string, headers: Record<string, string> = {}) =>
  fetch(`${url}/rest/v1/waitlist`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify({ email }),
  })

describe('security headers', () => {
  it("go with the page and everything outside the API: scripts from our origin and the page's own loader only, no framing", async () => {
    server = await startServer()
    const page = await (await fetch(`${server.url}/`)).text()
    // The page's one inline script (the loader of its bundle), allowed by its hash and nothing else.
    const inline = [...page.matchAll(/<script type="module">([^]*?)<\/script>/g)].map(([, code = '']) => code)
    expect(inline).toHaveLength(1)
    const hash = `'sha256-${createHash('sha256')
      .update(inline[0] ?? '')
      .digest('base64')}'`
    for (const answer of [await fetch(`${server.url}/`), await fetch(`${server.url}/missing`), await fetch(`${server.url}/healthz`)]) {
      const csp = answer.headers.get('content-security-policy') ?? ''
      expect(/script-src ([^;]*)/.exec(csp)?.[1]).toBe(`'self' ${hash}`)
      expect(csp).not.toContain("unsafe-inline'; script") // inline styles only, never inline scripts
      expect(csp).toContain("frame-ancestors 'none'")
      expect(csp).toContain("object-src 'none'")
      expect(answer.headers.get('x-content-type-options')).toBe('nosniff')
      expect(answer.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin')
      expect(answer.headers.get('x-frame-options')).toBe('DENY')
      expect(answer.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/)
    }
  })

  it('go with every API answer, success and error alike: no script at all, no framing', async () => {
    server = await startServer()
    const answers = [
      await join(server.url, 'h@example.com'),
      await join(server.url, 'nope'),
      await fetch(`${server.url}/rest/v1/waitlist`),
      await fetch(`${server.url}/rest/v1/other`, { method: 'POST' }),
    ]
    for (const answer of answers) {
      expect(answer.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'")
      expect(answer.headers.get('x-content-type-options')).toBe('nosniff')
      expect(answer.headers.get('referrer-policy')).toBe('no-referrer')
      expect(answer.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/)
      expect(answer.headers.get('access-control-allow-origin')).toBe('*')
    }
  })

  it('never put a stack trace or SQL in an answer, even when the store fails', async () => {
    server = await startServer()
    await server.app.store.close()
    const text = await (await join(server.url, 'x@example.com')).text()
    expect(text).not.toMatch(/\bat .+:\d+:\d+|SQLITE|INSERT|closed/i)
  })
})

describe('CORS_ORIGINS', () => {
  it('echoes only the listed origins, with Vary: Origin', async () => {
    server = await startServer({ CORS_ORIGINS: 'https://kennect.app,https://www.kennect.app' })
    const allowed = await join(server.url, 'cors@example.com', { Origin: 'https://www.kennect.app' })
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://www.kennect.app')
    expect(allowed.headers.get('vary')).toContain('Origin')
    const other = await join(server.url, 'cors2@example.com', { Origin: 'https://evil.example' })
    expect(other.headers.get('access-control-allow-origin')).toBeNull()
  })
})

describe('TRUST_PROXY and the rate limit', () => {
  it.each(['loopback', '127.0.0.1/8', '1'])('counts each client behind a trusted proxy (%s) on its own', async (trust) => {
    server = await startServer({ TRUST_PROXY: trust, RATE_LIMIT_PER_MINUTE: '2', RATE_LIMIT_PER_HOUR: '0' })
    const from = (ip: string, i: number) => join(server!.url, `p${ip}-${i}@example.com`, { 'X-Forwarded-For': ip })
    expect([(await from('203.0.113.1', 1)).status, (await from('203.0.113.1', 2)).status, (await from('203.0.113.1', 3)).status]).toEqual([
      201, 201, 429,
    ])
    expect((await from('203.0.113.2', 1)).status).toBe(201)
  })

  it.each([undefined, '10.0.0.1'])('ignores X-Forwarded-For from a peer that is not a trusted proxy (%s)', async (trust) => {
    server = await startServer({ RATE_LIMIT_PER_MINUTE: '2', RATE_LIMIT_PER_HOUR: '0', ...(trust ? { TRUST_PROXY: trust } : {}) })
    const statuses = []
    for (let i = 0; i < 3; i++)
      statuses.push((await join(server.url, `spoof${i}@example.com`, { 'X-Forwarded-For': `198.51.100.${i}` })).status)
    expect(statuses).toEqual([201, 201, 429])
  })

  it('counts an IPv6 client per /64, and one address however it is written', async () => {
    server = await startServer({ TRUST_PROXY: 'loopback', RATE_LIMIT_PER_MINUTE: '2', RATE_LIMIT_PER_HOUR: '0' })
    let n = 0
    const from = async (ip: string) => (await join(server!.url, `v6-${n++}@example.com`, { 'X-Forwarded-For': ip })).status
    // Six addresses of one /64, as a client rotating through its own prefix would use them.
    const rotating = [
      '2001:db8:1:2::a',
      '2001:db8:1:2:ffff::b',
      '2001:db8:1:2::c',
      '2001:db8:1:2:1:2:3:4',
      '2001:0DB8:0001:0002:0000:0000:0000:000d',
      '2001:db8:1:2::e',
    ]
    const statuses = []
    for (const ip of rotating) statuses.push(await from(ip))
    expect(statuses).toEqual([201, 201, 429, 429, 429, 429])
    expect(await from('2001:db8:1:3::1')).toBe(201) // the next /64 is someone else
    // An IPv4 client, as IPv4 and as IPv4-mapped IPv6 in two spellings.
    expect([await from('203.0.113.5'), await from('::ffff:203.0.113.5'), await from('::ffff:cb00:7105')]).toEqual([201, 201, 429])
  })

  it('applies the hourly limit as well as the per-minute one', async () => {
    server = await startServer({ RATE_LIMIT_PER_MINUTE: '100', RATE_LIMIT_PER_HOUR: '2' })
    const statuses = []
    for (let i = 0; i < 3; i++) statuses.push((await join(server.url, `hour${i}@example.com`)).status)
    expect(statuses).toEqual([201, 201, 429])
  })
})

describe('logs', () => {
  let running: ServerProcess | undefined
  afterEach(async () => {
    await running?.stop('SIGKILL')
    running = undefined
  })

  it('are JSON lines with a request id, and never hold an e-mail address, an IP or a key', async () => {
    const db = tempSqlitePath()
    running = await spawnServer({ SQLITE_PATH: db.path, WAITLIST_ANON_KEY: 'secret-anon-key-123', ADMIN_TOKEN: 'secret-admin-token-456' })
    await join(running.url, 'private.person@example.com', { apikey: 'secret-anon-key-123' })
    await fetch(`${running.url}/rest/v1/waitlist?apikey=secret-anon-key-123&email=other.person@example.com`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: 'third.person@example.com' }),
    })
    await join(running.url, 'not-valid', { apikey: 'wrong' })
    const admin = { Authorization: 'Bearer secret-admin-token-456' }
    expect((await fetch(`${running.url}/admin/api/signups?search=private.person@example.com`, { headers: admin })).status).toBe(200)
    const removal = await fetch(`${running.url}/admin/api/signups?email=private.person@example.com`, { method: 'DELETE', headers: admin })
    expect(await removal.json()).toEqual({ removed: true })
    expect((await fetch(`${running.url}/admin/api/stats`, { headers: { Authorization: 'Bearer a-guess' } })).status).toBe(401)
    // Addresses where a visitor (or a scanner) may put them: in the path, encoded or not, and as a
    // parameter's name; IP addresses too, in any spelling.
    const personal = [
      '/u/path.person@example.com',
      '/u/encoded.person%40example.com',
      '/?param.person@example.com',
      '/?x=1&named.person%40example.com=2',
      '/ip/203.0.113.77',
      '/ip/2001:db8:abcd::77',
      '/ip/%5B2001:db8:abcd::78%5D',
      '/?198.51.100.77',
      '/rest/v1/waitlist/deep.person@example.com',
    ]
    for (const path of personal) await (await fetch(`${running.url}${path}`)).arrayBuffer()
    const proc = running
    expect(await proc.stop('SIGTERM')).toBe(0)
    running = undefined
    // Every line is JSON but the first start's setup line (on stderr, for the console).
    const lines = proc
      .output()
      .trim()
      .split('\n')
      .filter((line) => !line.startsWith('No operator yet: the first owner sets up the admin page within the hour at http://localhost:'))
    const entries = lines.map((line) => JSON.parse(line) as { reqId?: string; msg: string })
    const requests = entries.filter((e) => e.msg === 'request') as { reqId?: string; status?: number; req?: { path: string } }[]
    const logged = requests.map((e) => [e.req?.path, e.status])
    expect(logged.slice(0, 6)).toEqual([
      ['/rest/v1/waitlist', 201],
      ['/rest/v1/waitlist', 201],
      ['/rest/v1/waitlist', 401],
      ['/admin/api/signups', 200],
      ['/admin/api/signups', 200],
      ['/admin/api/stats', 401],
    ])
    // A line is written when its answer is sent whole, so the order of these may vary.
    expect(logged.slice(6).map(String).sort()).toEqual(
      [
        ['/u/[email]', 404],
        ['/u/[email]', 404],
        ['/', 200],
        ['/', 200],
        ['/ip/[ip]', 404],
        ['/ip/[ip]', 404],
        ['/ip/[[ip]]', 404],
        ['/', 200],
        ['/rest/v1/waitlist/[email]', 401],
      ]
        .map(String)
        .sort(),
    )
    const params = requests.flatMap((e) => (e.req as { params?: string[] } | undefined)?.params ?? [])
    expect(params.sort()).toEqual(['[email]', '[email]', '[ip]', 'apikey', 'email', 'email', 'search', 'x'])
    expect(entries.some((e) => e.msg === 'admin: removal of a sign-up')).toBe(true)
    expect(entries.some((e) => e.msg === 'admin: refused a request without a valid token')).toBe(true)
    for (const entry of requests) expect(entry.reqId).toMatch(/^[0-9a-f-]{36}$/)
    const everything = proc.output()
    expect(everything).not.toMatch(/[\w.+-]+@[\w-]+\.[\w.]+/)
    expect(everything).not.toContain('secret-anon-key-123')
    expect(everything).not.toContain('secret-admin-token-456')
    expect(everything).not.toContain('a-guess')
    expect(everything).not.toMatch(/remoteAddress|remotePort|"ip"/)
    expect(everything).not.toMatch(/person|%40|203\.0\.113|198\.51\.100|2001:db8/i)
    db.cleanup()
  })
})
