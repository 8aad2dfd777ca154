import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startServer, type TestServer } from '../support/server'
import { STORES } from '../support/stores'
import { row } from '../support/rows'

const TOKEN = 'admin-token-for-tests-0123456789'

describe('admin without ADMIN_TOKEN', () => {
  it('has no break-glass token: the page asks operators to sign in, and any bearer is refused', async () => {
    const server = await startServer()
    try {
      expect((await fetch(`${server.url}/admin/api/stats`, { headers: { Authorization: `Bearer ${TOKEN}` } })).status).toBe(401)
      expect((await fetch(`${server.url}/admin/api/stats`, { headers: { Authorization: 'Bearer ' } })).status).toBe(401)
      const page = await fetch(`${server.url}/admin`)
      expect(page.status).toBe(200)
      expect(page.headers.get('x-robots-tag')).toContain('noindex')
    } finally {
      await server.close()
    }
  })
})

describe.each(STORES)('admin API on $kind', ({ kind, available }) => {
  let server: TestServer
  beforeAll(async () => {
    if (!available) return
    // Behind a trusted proxy, so the guesser below can come from an address of its own.
    server = await startServer({ ADMIN_TOKEN: TOKEN, TRUST_PROXY: 'loopback' }, kind)
    for (let i = 0; i < 120; i++)
      await server.app.store.add(row(`dog${String(i).padStart(3, '0')}@kennel.example`, { utm_source: i % 3 === 0 ? 'newsletter' : null }))
    await server.app.store.add(row('formula@example.com', { utm_source: '=cmd|"/c calc"!A1' }))
  })
  afterAll(() => server?.close())

  const admin = (path: string, init: RequestInit = {}) =>
    fetch(`${server.url}/admin/api${path}`, {
      ...init,
      headers: { Authorization: `Bearer ${TOKEN}`, ...(init.headers as Record<string, string>) },
    })

  it.skipIf(!available)('refuses a missing or wrong token, then every request from the same address past ten', async () => {
    const guesser = { 'X-Forwarded-For': '192.0.2.10' }
    const missing = await fetch(`${server.url}/admin/api/stats`, { headers: guesser })
    expect(missing.status).toBe(401)
    expect(missing.headers.get('www-authenticate')).toBe('Bearer')
    expect(await missing.json()).toMatchObject({ code: 'unauthorized' })
    // A request without any credential guesses nothing: only wrong tokens count.
    const statuses = []
    for (let i = 0; i < 11; i++)
      statuses.push((await admin('/stats', { headers: { ...guesser, Authorization: `Bearer wrong-${i}` } })).status)
    expect(statuses).toEqual([401, 401, 401, 401, 401, 401, 401, 401, 401, 401, 429])
    // Locked out, the right token is refused too: a guesser cannot learn that a guess was right.
    const locked = await admin('/stats', { headers: guesser })
    expect(locked.status).toBe(429)
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(800)
    expect(await locked.json()).toMatchObject({ code: 'too_many_attempts' })
    expect((await admin('/signups', { headers: guesser })).status).toBe(429)
    // The team, from another address, is not locked out by someone else's guessing.
    expect((await admin('/stats')).status).toBe(200)
  })

  it.skipIf(!available)('gives totals, sign-ups per day and the top sources', async () => {
    const answer = await admin('/stats')
    expect(answer.headers.get('cache-control')).toBe('no-store')
    expect(answer.headers.get('x-robots-tag')).toContain('noindex')
    const stats = await answer.json()
    expect(stats.total).toBe(121)
    expect(stats.perDay).toEqual([{ day: new Date().toISOString().slice(0, 10), count: 121 }])
    expect(stats.perSource[0]).toEqual({ source: null, count: 80 })
    expect(stats.perSource[1]).toEqual({ source: 'newsletter', count: 40 })
  })

  it.skipIf(!available)('lists sign-ups in pages, and searches', async () => {
    const first = await (await admin('/signups?limit=50')).json()
    expect(first.items).toHaveLength(50)
    const second = await (await admin(`/signups?limit=50&after=${first.next}`)).json()
    const third = await (await admin(`/signups?limit=50&after=${second.next}`)).json()
    expect(third.items).toHaveLength(21)
    expect(third.next).toBeNull()
    const all = [...first.items, ...second.items, ...third.items].map((r: { email: string }) => r.email)
    expect(new Set(all).size).toBe(121)
    const found = await (await admin('/signups?search=DOG01')).json()
    expect(found.items.map((r: { email: string }) => r.email)).toEqual([...Array(10)].map((_, i) => `dog01${i}@kennel.example`))
    expect((await admin('/signups?limit=1000')).status).toBe(400)
  })

  it.skipIf(!available)('streams every sign-up as spreadsheet-safe CSV', async () => {
    const answer = await admin('/export.csv')
    expect(answer.headers.get('content-type')).toBe('text/csv; charset=utf-8')
    expect(answer.headers.get('content-disposition')).toMatch(/^attachment; filename="kennect-waitlist-\d{4}-\d\d-\d\d\.csv"$/)
    const lines = (await answer.text()).trimEnd().split('\r\n')
    // 121 rows: more than one page of the export (EXPORT_PAGE_SIZE), each row once.
    expect(lines).toHaveLength(122)
    expect(new Set(lines).size).toBe(122)
    expect(lines.at(-1)).toContain(`,"'=cmd|""/c calc""!A1",`)
  })

  it.skipIf(!available)('removes one address for good', async () => {
    const removed = await admin('/signups?email=DOG000@kennel.example', { method: 'DELETE' })
    expect(await removed.json()).toEqual({ removed: true })
    expect(await (await admin('/signups?email=dog000@kennel.example', { method: 'DELETE' })).json()).toEqual({ removed: false })
    expect((await (await admin('/signups?search=dog000')).json()).items).toEqual([])
    expect((await admin('/signups', { method: 'DELETE' })).status).toBe(400)
  })
})
