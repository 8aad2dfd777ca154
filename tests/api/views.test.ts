// The funnel without cookies (docs/decisions/015-growth.md), over HTTP on both stores: which sends
// of the landing page count as a person's view, one visitor a day whatever they do, where views
// came from, the sign-ups' cohorts beside them, what is kept (nothing per visitor past its day),
// and that counting never fails a page.
import Database from 'better-sqlite3'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { Funnel } from '../../contract/growth'
import { content } from '../../web/content'
import { confirmOnPage, joinWithLink } from '../support/page-links'
import { createTestSchema, postgresAvailable, type TestDatabase } from '../support/postgres'
import { startServer, type TestServer } from '../support/server'
import { STORES } from '../support/stores'
import { profileOf } from '../support/profile'

const ADMIN_TOKEN = 'admin-token-for-the-view-tests-012345'
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36'
const today = () => new Date().toISOString().slice(0, 10)

/** A send of the landing page as a browser (or anything else) asks for it, from `ip` (TRUST_PROXY=loopback). */
const view = (url: string, { ip = '198.51.100.7', path = '/', method = 'GET', headers = {} as Record<string, string> } = {}) =>
  fetch(`${url}${path}`, { method, headers: { 'user-agent': BROWSER, 'x-forwarded-for': ip, ...headers } })

async function funnelOf(url: string, query = ''): Promise<Funnel> {
  const answer = await fetch(`${url}/admin/api/funnel${query}`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })
  expect(answer.status).toBe(200)
  return (await answer.json()) as Funnel
}
const todayOf = (funnel: Funnel) => funnel.days.find((d) => d.day === today())
const sourceOf = (funnel: Funnel, name: string) => funnel.sources.find((s) => s.source === name)

describe.each(STORES)('counting the landing page on $kind', ({ kind, available }) => {
  let server: TestServer
  afterEach(() => server?.close())
  const start = async (env: Record<string, string> = {}) => {
    server = await startServer({ ADMIN_TOKEN, TRUST_PROXY: 'loopback', MAIL_RATE_PER_SECOND: '0', ...env }, kind)
    return server
  }

  it.skipIf(!available)(
    "counts a person's views, one visitor a day, and nothing a bot, a preview, a prefetch or HEAD asks for",
    async () => {
      await start()
      for (let i = 0; i < 10; i++) expect((await view(server.url)).status).toBe(200)
      const notViews: Parameters<typeof view>[1][] = [
        { headers: { 'user-agent': 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' } },
        { headers: { 'user-agent': 'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)' } },
        { headers: { 'user-agent': 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)' } },
        { headers: { 'user-agent': 'WhatsApp/2.23.20.0 A' } },
        { headers: { 'user-agent': 'curl/8.5.0' } },
        { headers: { 'user-agent': '' } },
        { headers: { 'user-agent': '   ' } },
        { method: 'HEAD' },
        { headers: { 'sec-purpose': 'prefetch' } },
        { headers: { 'sec-purpose': 'prefetch;prerender' } },
        { headers: { purpose: 'prefetch' } },
        { headers: { 'x-moz': 'prefetch' } },
        { headers: { 'x-purpose': 'preview' } },
        { headers: { 'sec-fetch-dest': 'iframe' } },
        { headers: { 'sec-fetch-dest': 'empty' } },
      ]
      for (const [i, request] of notViews.entries()) expect((await view(server.url, { ip: `203.0.113.${i}`, ...request })).status).toBe(200)
      // A browser's navigation sends fetch metadata: that counts too, as does /index.html.
      await view(server.url, { ip: '198.51.100.8', headers: { 'sec-fetch-dest': 'document', 'sec-fetch-mode': 'navigate' } })
      await view(server.url, { ip: '198.51.100.9', path: '/index.html' })
      const funnel = await funnelOf(server.url)
      expect(todayOf(funnel)).toMatchObject({ views: 12, visitors: 3 })
      expect(funnel.sources).toEqual([{ source: 'direct', partner: null, views: 12, visitors: 3, signups: 0, confirmed: 0 }])
    },
  )

  it.skipIf(!available)(
    'tells visitors apart by address (an IPv6 client by its /64) and browser, and names where they came from',
    async () => {
      await start()
      await view(server.url, { ip: '2001:db8:1:2::10', path: '/?utm_source=dogshow&utm_medium=flyer' })
      await view(server.url, { ip: '2001:db8:1:2:ffff::1' }) // the same /64 and browser: the same visitor, first seen at the dog show
      await view(server.url, { ip: '2001:db8:1:3::10', headers: { referer: 'https://www.breedclub.example/news/2026?member=42' } })
      await view(server.url, {
        ip: '2001:db8:1:3::10',
        headers: { referer: 'https://www.breedclub.example/', 'user-agent': `${BROWSER} Edg/156` },
      })
      await view(server.url, { ip: '198.51.100.7', headers: { referer: `${server.url}/#about`, host: new URL(server.url).host } })
      const funnel = await funnelOf(server.url)
      expect(todayOf(funnel)).toMatchObject({ views: 5, visitors: 4 })
      expect(sourceOf(funnel, 'dogshow')).toMatchObject({ views: 1, visitors: 1 })
      expect(sourceOf(funnel, 'www.breedclub.example')).toMatchObject({ views: 2, visitors: 2 })
      // The second view of the dog-show visitor came direct: a view there, not another visitor.
      expect(sourceOf(funnel, 'direct')).toMatchObject({ views: 2, visitors: 1 })
    },
  )

  it.skipIf(!available)('keeps counts per day and source only: nothing per visitor outlives its day', async () => {
    await start()
    await view(server.url)
    await funnelOf(server.url) // written
    if (kind === 'sqlite') {
      const db = new Database(server.config.SQLITE_PATH, { readonly: true })
      const tables = (db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table'`).pluck().all() as string[]).filter((t) =>
        /view|visit/.test(t),
      )
      expect(tables).toEqual(['page_views'])
      expect(db.prepare('SELECT * FROM page_views').all()).toEqual([{ day: today(), source: 'direct', views: 1, visitors: 1 }])
      db.close()
    } else {
      const { default: pg } = await import('pg')
      const client = new pg.Client({ connectionString: server.config.DATABASE_URL })
      await client.connect()
      const count = async (table: string) => Number((await client.query(`SELECT count(*) AS n FROM ${table}`)).rows[0]?.n)
      expect([await count('visitor_hashes'), await count('visitor_day_keys')]).toEqual([1, 1])
      await client.query(`INSERT INTO visitor_hashes (day, hash) VALUES (current_date - 1, '\\x00'), (current_date - 2, '\\x01')`)
      await client.query(`INSERT INTO visitor_day_keys (day, secret) VALUES (current_date - 1, '\\x02')`)
      await server.app.store.growth.forgetPastDays()
      expect([await count('visitor_hashes'), await count('visitor_day_keys')]).toEqual([1, 1])
      const persisted = await client.query(
        `SELECT relname, relpersistence FROM pg_class WHERE relnamespace = current_schema()::regnamespace AND relname IN ('visitor_hashes', 'visitor_day_keys') ORDER BY 1`,
      )
      expect(persisted.rows).toEqual([
        { relname: 'visitor_day_keys', relpersistence: 'u' },
        { relname: 'visitor_hashes', relpersistence: 'u' },
      ])
      await client.end()
    }
  })

  it.skipIf(!available)("shows each day's and each source's sign-ups beside the views: confirmed, profiled, inviters", async () => {
    await start()
    await view(server.url, { path: '/?utm_source=club' })
    const ada = await joinWithLink(server, 'ada@example.com', { utm_source: 'club' })
    const ben = await joinWithLink(server, 'ben@example.com', { referrer: 'www.breedclub.example' })
    await joinWithLink(server, 'cy@example.com')
    await confirmOnPage(server, ada.token)
    await server.app.store.visitors.saveProfile(ben.id, profileOf({ role: 'owner', breeds: [], country: null }))
    const code = (await server.app.store.visitors.data(ada.id)).invite.code
    const friend = await joinWithLink(server, 'friend@example.com', { invite: code, utm_source: 'club' })
    await confirmOnPage(server, friend.token)
    const funnel = await funnelOf(server.url)
    expect(todayOf(funnel)).toEqual({ day: today(), views: 1, visitors: 1, signups: 4, confirmed: 2, profiled: 1, inviters: 1 })
    expect(funnel.sources).toEqual([
      { source: 'club', partner: null, views: 1, visitors: 1, signups: 2, confirmed: 2 },
      { source: 'direct', partner: null, views: 0, visitors: 0, signups: 1, confirmed: 0 },
      { source: 'www.breedclub.example', partner: null, views: 0, visitors: 0, signups: 1, confirmed: 0 },
    ])
  })

  it.skipIf(!available)('answers every day of the range, and refuses a bad one naming the parameter', async () => {
    await start()
    const funnel = await funnelOf(server.url, '?since=2026-02-27&until=2026-03-02')
    expect(funnel.days.map((d) => d.day)).toEqual(['2026-02-27', '2026-02-28', '2026-03-01', '2026-03-02'])
    expect(funnel.days.every((d) => d.views === 0 && d.signups === 0)).toBe(true)
    expect((await funnelOf(server.url)).days).toHaveLength(30)
    for (const [query, field] of [
      ['?since=2026-13-01', 'since'],
      ['?until=2026-02-30', 'until'],
      ['?since=yesterday', 'since'],
      ['?since=2026-03-02&until=2026-03-01', 'until'],
      ['?since=2024-01-01&until=2026-01-01', 'since'],
      ['?from=2026-01-01', 'from'],
    ]) {
      const answer = await fetch(`${server.url}/admin/api/funnel${query}`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })
      expect(answer.status, query).toBe(400)
      expect(((await answer.json()) as { message: string }).message, query).toContain(field)
    }
  })

  it.skipIf(!available)('counts nothing with COUNT_PAGE_VIEWS=0', async () => {
    await start({ COUNT_PAGE_VIEWS: '0' })
    await view(server.url)
    expect(todayOf(await funnelOf(server.url))).toMatchObject({ views: 0, visitors: 0 })
  })

  it.skipIf(!available)('sends the page as usual when the store fails, and drops that count', async () => {
    await start()
    await server.app.store.close()
    const answer = await view(server.url)
    expect(answer.status).toBe(200)
    expect(await answer.text()).toContain(content.hero.note)
    await server.app.views.flush() // the count fails to be written, and is logged, not thrown
  })
})

describe.skipIf(!postgresAvailable)('two instances on one PostgreSQL database', () => {
  let db: TestDatabase
  let instances: TestServer[] = []
  beforeAll(async () => {
    db = await createTestSchema()
    const env = { DATABASE_URL: db.url, ADMIN_TOKEN, TRUST_PROXY: 'loopback' }
    instances = [await startServer(env, 'postgres'), await startServer(env, 'postgres')]
  })
  afterAll(async () => {
    for (const instance of instances) await instance.close()
    await db?.cleanup()
  })

  it('count one visitor once, whichever instance sends the page', async () => {
    const [first, second] = instances
    if (!first || !second) throw new Error('no instances')
    for (const instance of [first, second, first, second]) await view(instance.url, { ip: '198.51.100.70' })
    await view(second.url, { ip: '198.51.100.71' })
    await first.app.views.flush()
    expect(todayOf(await funnelOf(second.url))).toMatchObject({ views: 5, visitors: 2 })
    expect(Number((await db.query<{ n: string }>('SELECT count(*) AS n FROM visitor_day_keys')).rows[0]?.n)).toBe(1)
  })
})
